package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.WEBHOOK_INBOX;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.api.auth.ApiKeys;
import dev.payrelay.api.http.ApiServer;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.runtime.ApiRuntime;
import dev.payrelay.app.runtime.Services;
import dev.payrelay.ledger.testing.TestDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Unsigned 64 KiB callbacks through the API as {@code payrelay api} builds it: each row keeps at
 * most the configured body prefix, with the hash and length of the whole body.
 */
@Timeout(120)
class InboxFloodTest {

  @Test
  void unsigned64KiBCallbacks_eachStoreAtMostThePrefix_andTheWholeBodysLength() throws Exception {
    byte[] body = new byte[65_536];
    Arrays.fill(body, (byte) 'x');
    PayrelayConfig config =
        PayrelayConfig.fromEnv(Map.of("PAYRELAY_INBOX_REJECTED_BODY_SIZE", "1KiB"));
    try (TestDatabase db = TestDatabase.create(InboxFloodTest.class);
        ApiServer api =
            new ApiRuntime(
                    config, Services.over(db.database()), ApiKeys.parse("", "none"), null, () -> {})
                .build()
                .start("127.0.0.1", 0)) {
      HttpClient http = HttpClient.newHttpClient();
      for (int i = 0; i < 20; i++) {
        HttpResponse<String> r =
            http.send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + api.port() + "/v1/webhooks/sandbox"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(401);
      }
      DSLContext dsl = db.database().dsl();
      var rows =
          dsl.select(
                  DSL.count(),
                  DSL.max(DSL.field("LENGTH({0})", Integer.class, WEBHOOK_INBOX.RAW_BODY)),
                  DSL.min(WEBHOOK_INBOX.BODY_BYTES),
                  DSL.count().filterWhere(WEBHOOK_INBOX.REJECTED.isTrue()))
              .from(WEBHOOK_INBOX)
              .fetchSingle();

      assertThat(rows.value1()).isEqualTo(20);
      assertThat(rows.value2()).as("largest stored body").isEqualTo(1024);
      assertThat(rows.value3()).isEqualTo(65_536);
      assertThat(rows.value4()).isEqualTo(20);
    }
  }
}
