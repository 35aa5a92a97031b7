package dev.payrelay.api;

import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Input that looks valid to a reader but is not what it seems: numbers past an int that would wrap
 * around, ids holding bidirectional controls or invisible characters. Real MariaDB behind the API.
 */
class HostileInputTest {

  private static TestApi api;

  @BeforeAll
  static void start() {
    api = new TestApi(HostileInputTest.class, false);
  }

  @AfterAll
  static void stop() {
    api.close();
  }

  @Test
  void aLimitPastAnInt_isRefused400_notWrappedToAnotherLimit() throws Exception {
    for (String limit :
        List.of("4294967297", "-4294967295", "99999999999999999999", "1e3", "١٠", "５")) {
      HttpResponse<String> r =
          api.send(
              "GET",
              false,
              "/v1/admin/outbox?limit="
                  + java.net.URLEncoder.encode(limit, java.nio.charset.StandardCharsets.UTF_8),
              null,
              api.admin.token());

      assertThat(r.statusCode()).as(limit + ": " + r.body()).isEqualTo(400);
      assertThat(r.body()).contains("limit must be an integer 1..1000, got " + limit);
    }
    assertThat(
            api.send("GET", false, "/v1/admin/outbox?limit=1000", null, api.admin.token())
                .statusCode())
        .isEqualTo(200);
  }

  @Test
  void bidiControlsAndInvisibleCharacters_inAnyIdOfAPayment_areRefused() throws Exception {
    String valid =
        "{\"tenantId\":\"t\",\"orderId\":\"o-bidi\",\"userId\":\"u\",\"amountMinor\":100,"
            + "\"currency\":\"USD\",\"courseIds\":[\"c1\"],\"channel\":\"sandbox\"}";
    for (String c : List.of("\\u202E", "\\u2066", "\\u2069", "\\u200F", "\\u200B", "\\u2028")) {
      String code = "U+" + c.substring(2).toUpperCase(java.util.Locale.ROOT);
      List<String[]> cases =
          List.of(
              new String[] {"tenantId", valid.replace("\"t\"", "\"t" + c + "x\"")},
              new String[] {"orderId", valid.replace("\"o-bidi\"", "\"o-bidi" + c + "x\"")},
              new String[] {"userId", valid.replace("\"u\"", "\"u" + c + "moc.liame@\"")},
              new String[] {"courseIds[]", valid.replace("\"c1\"", "\"c" + c + "1\"")});
      for (String[] field : cases) {
        HttpResponse<String> r =
            api.send("POST", false, "/v1/payments", field[1], api.admin.token());

        assertThat(r.statusCode()).as(field[0] + " " + code + ": " + r.body()).isEqualTo(400);
        assertThat(r.body())
            .contains(field[0] + " must not contain control or format characters (" + code);
      }
    }
    assertThat(api.dsl.fetchCount(PAYMENT_ORDER, PAYMENT_ORDER.ORDER_ID.like("o-bidi%"))).isZero();
  }

  @Test
  void anOutboxEventTypeFilter_withABidiControl_isRefused() throws Exception {
    HttpResponse<String> r =
        api.send(
            "GET",
            false,
            "/v1/admin/outbox?eventType=Payment%E2%80%AEConfirmed",
            null,
            api.admin.token());

    assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
    assertThat(r.body()).contains("eventType must not contain control or format characters");
  }
}
