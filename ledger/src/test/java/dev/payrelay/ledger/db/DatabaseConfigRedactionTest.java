package dev.payrelay.ledger.db;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DatabaseConfigRedactionTest {

  @Test
  void aPasswordInTheJdbcUrl_isMaskedWhereverTheUrlIsPrinted() {
    String url = "jdbc:mysql://127.0.0.1:3306/payrelay?user=payrelay&password=s3cret&useSSL=true";

    assertThat(DatabaseConfig.withoutSecrets(url))
        .isEqualTo("jdbc:mysql://127.0.0.1:3306/payrelay?user=payrelay&password=***&useSSL=true");
    assertThat(DatabaseConfig.withoutSecrets("jdbc:mysql://root:s3cret@db:3306/x"))
        .isEqualTo("jdbc:mysql://***@db:3306/x");
    assertThat(new DatabaseUnavailableException(url, new RuntimeException("refused")).getMessage())
        .doesNotContain("s3cret")
        .contains("password=***");
    assertThat(new DatabaseConfig(url, "payrelay", "other", 4).toString()).doesNotContain("s3cret");
  }
}
