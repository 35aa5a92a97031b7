package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.api.auth.ApiKeys;
import dev.payrelay.api.auth.Role;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ApiKeyCommandTest {

  @Test
  void printsAKeyAndTheLineThatAcceptsIt_andRefusesAnUnknownRole() {
    CliRun r =
        CliRun.of(
            Map.of(), "apikey", "--role", "operate", "--operator", "carol", "--tenants", "t1,t2");
    CliRun bad =
        CliRun.of(Map.of(), "apikey", "--role", "root", "--operator", "carol", "--tenants", "*");

    String[] lines = r.out().lines().map(String::strip).toArray(String[]::new);
    String token = lines[1];
    String line = lines[3];
    assertThat(r.exit()).isZero();
    assertThat(token).startsWith("prk_");
    // prk_<hex id>_<base64url secret>: the secret itself may contain '_', so it starts after the
    // id's underscore, not after the last one.
    String secret = token.substring(token.indexOf('_', ApiKeys.PREFIX.length()) + 1);
    assertThat(secret).hasSizeGreaterThanOrEqualTo(32);
    assertThat(line).doesNotContain(secret);
    assertThat(ApiKeys.parse(line, "test").authenticate(token))
        .hasValueSatisfying(
            k -> {
              assertThat(k.role()).isEqualTo(Role.OPERATE);
              assertThat(k.operator()).isEqualTo("carol");
              assertThat(k.tenants()).containsExactlyInAnyOrder("t1", "t2");
            });
    assertThat(bad.exit()).isNotZero();
    assertThat(bad.err()).contains("role must be one of [read, operate, admin]");
  }
}
