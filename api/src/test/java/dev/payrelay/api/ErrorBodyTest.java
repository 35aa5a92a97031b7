package dev.payrelay.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.api.http.ApiServer;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Error bodies carry a code and a message in the API's terms, never an internal class name. Real
 * MariaDB behind the API.
 */
class ErrorBodyTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static TestApi api;

  @BeforeAll
  static void start() {
    api = new TestApi(ErrorBodyTest.class, false);
  }

  @AfterAll
  static void stop() {
    api.close();
  }

  private static JsonNode refused(HttpResponse<String> r, int status, String code)
      throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    assertThat(r.body())
        .doesNotContain("dev.payrelay", "Exception", "class ", "java.", "CreatePaymentRequest");
    JsonNode body = JSON.readTree(r.body());
    assertThat(body.path("code").asText()).isEqualTo(code);
    return body;
  }

  private static HttpResponse<String> create(String body) throws Exception {
    return api.send("POST", false, "/v1/payments", body, api.admin.token());
  }

  @Test
  void malformedJson_isA400WithACode_andSaysWhere() throws Exception {
    JsonNode body = refused(create("{\"tenantId\": \"t\", "), 400, "MALFORMED_JSON");

    assertThat(body.path("error").asText()).startsWith("malformed JSON: not valid JSON at line 1");
  }

  @Test
  void unknownFieldAndWrongType_nameTheField_notTheRequestClass() throws Exception {
    JsonNode unknown = refused(create("{\"amount\":100}"), 400, "MALFORMED_JSON");
    JsonNode wrongType = refused(create("{\"amountMinor\":\"1999\"}"), 400, "MALFORMED_JSON");
    JsonNode wrongList = refused(create("{\"courseIds\":[[1]]}"), 400, "MALFORMED_JSON");

    assertThat(unknown.path("error").asText()).isEqualTo("malformed JSON: unknown field 'amount'");
    assertThat(wrongType.path("error").asText())
        .isEqualTo("malformed JSON: field 'amountMinor' must be a whole number");
    assertThat(wrongList.path("error").asText())
        .isEqualTo("malformed JSON: field 'courseIds[0]' must be a string");
  }

  @Test
  void aChannelThatCannotBeReached_isA502SayingWhatToDo_notTheConnectionsException()
      throws Exception {
    // TestApi's sandbox points at a closed port.
    JsonNode body =
        refused(
            create(
                "{\"tenantId\":\"t\",\"orderId\":\"o-502\",\"userId\":\"u\",\"amountMinor\":100,"
                    + "\"currency\":\"USD\",\"courseIds\":[\"c1\"],\"channel\":\"sandbox\"}"),
            502,
            "CHANNEL_UNAVAILABLE");

    assertThat(body.path("error").asText())
        .matches(
            "payment pay_\\w+ stored but the channel did not register it; retry with the same"
                + " Idempotency-Key");
  }

  @Test
  void aBadQueryParameter_isA400WithACode() throws Exception {
    JsonNode body =
        refused(
            api.send(
                "GET", false, "/v1/admin/outbox?olderThanSeconds=soon", null, api.admin.token()),
            400,
            "BAD_REQUEST");

    assertThat(body.path("error").asText()).contains("olderThanSeconds");
  }

  @Test
  void anAdminBodyOverTheRequestLimit_isA413WithACode_notJavalinsPlainText() throws Exception {
    String padded = "{\"reason\":\"" + "x".repeat(ApiServer.MAX_REQUEST_BYTES) + "\"}";

    JsonNode body =
        refused(
            api.send("POST", false, "/v1/admin/outbox/replay", padded, api.admin.token()),
            413,
            "TOO_LARGE");

    assertThat(body.path("error").asText()).isNotBlank();
  }

  @Test
  void anUnexpectedFailure_isA500NamingAnIncident_notTheExceptionsClass() throws Exception {
    // TestApi has no listing by state: the route fails with a NullPointerException inside.
    JsonNode body =
        refused(
            api.send("GET", false, "/v1/admin/payments", null, api.admin.token()), 500, "INTERNAL");

    assertThat(body.path("error").asText()).matches("internal error; incident [0-9a-f]{12}.*");
  }
}
