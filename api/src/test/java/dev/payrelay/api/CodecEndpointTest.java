package dev.payrelay.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.util.JsonFormat;
import dev.payrelay.api.auth.Role;
import dev.payrelay.api.codec.AesGcmPayloadCodec;
import dev.payrelay.api.codec.PayloadKeyRing;
import dev.payrelay.api.http.CodecEndpoint;
import dev.payrelay.api.http.Routes;
import io.javalin.Javalin;
import io.temporal.api.common.v1.Payload;
import io.temporal.api.common.v1.Payloads;
import io.temporal.common.converter.DefaultDataConverter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The codec endpoint over real HTTP, with payloads the real codec encrypted. */
class CodecEndpointTest {

  private static final String UI = "http://localhost:8233";
  private final HttpClient http = HttpClient.newHttpClient();
  private final AesGcmPayloadCodec codec = new AesGcmPayloadCodec(ring("k1"));
  private Javalin app;

  private static PayloadKeyRing ring(String id) {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    return new PayloadKeyRing(id, key, Map.of());
  }

  private URI start(CodecEndpoint endpoint) {
    app = Javalin.create(cfg -> cfg.showJavalinBanner = false);
    endpoint.register(new Routes(app));
    app.start("127.0.0.1", 0);
    return URI.create("http://127.0.0.1:" + app.port() + CodecEndpoint.PATH);
  }

  @AfterEach
  void stop() {
    if (app != null) {
      app.stop();
    }
  }

  private static String json(List<Payload> payloads) throws Exception {
    return JsonFormat.printer().print(Payloads.newBuilder().addAllPayloads(payloads).build());
  }

  private static List<Payload> parse(String body) throws Exception {
    Payloads.Builder b = Payloads.newBuilder();
    JsonFormat.parser().merge(body, b);
    return b.getPayloadsList();
  }

  private HttpResponse<String> post(URI uri, String body, Map<String, String> headers)
      throws Exception {
    HttpRequest.Builder r =
        HttpRequest.newBuilder(uri)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    headers.forEach(r::header);
    return http.send(r.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static Payload value(Object v) {
    return DefaultDataConverter.STANDARD_INSTANCE.toPayload(v).orElseThrow();
  }

  @Test
  void decode_fromTheUiOrigin_answersThePlainPayloads_withCorsHeaders() throws Exception {
    URI base = start(new CodecEndpoint(codec, List.of(UI), CodecEndpoint.Access.OPEN));
    Payload plain = value(Map.of("orderId", "order-42"));
    List<Payload> sealed = codec.encode(List.of(plain, value(7)));

    HttpResponse<String> r =
        post(
            URI.create(base + "/decode"),
            json(sealed),
            Map.of("Origin", UI, "X-Namespace", "default"));

    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(parse(r.body())).containsExactly(plain, value(7));
    assertThat(r.headers().firstValue("Access-Control-Allow-Origin")).hasValue(UI);
    assertThat(r.headers().firstValue("Access-Control-Allow-Credentials")).hasValue("true");
  }

  @Test
  void encode_sealsWithTheCurrentKey_andTheCodecReadsItBack() throws Exception {
    URI base = start(new CodecEndpoint(codec, List.of(UI), CodecEndpoint.Access.OPEN));
    Payload plain = value("user-9");

    HttpResponse<String> r = post(URI.create(base + "/encode"), json(List.of(plain)), Map.of());

    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    List<Payload> sealed = parse(r.body());
    assertThat(sealed.get(0).getMetadataOrThrow("encoding").toStringUtf8())
        .isEqualTo("binary/encrypted");
    assertThat(r.body()).doesNotContain("user-9");
    assertThat(codec.decode(sealed)).containsExactly(plain);
  }

  @Test
  void preflight_fromTheUiOrigin_allowsTheUiHeaders() throws Exception {
    URI base = start(new CodecEndpoint(codec, List.of(UI), CodecEndpoint.Access.OPEN));

    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(base + "/decode"))
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Origin", UI)
                .header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "content-type,x-namespace,authorization")
                .build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(r.statusCode()).isEqualTo(204);
    assertThat(r.headers().firstValue("Access-Control-Allow-Origin")).hasValue(UI);
    assertThat(r.headers().firstValue("Access-Control-Allow-Headers").orElseThrow())
        .contains("X-Namespace", "Authorization", "Content-Type");
    assertThat(r.headers().firstValue("Access-Control-Allow-Methods").orElseThrow())
        .contains("POST");
  }

  @Test
  void anotherOrigin_isRefused_withoutCorsHeaders() throws Exception {
    URI base = start(new CodecEndpoint(codec, List.of(UI), CodecEndpoint.Access.OPEN));
    List<Payload> sealed = codec.encode(List.of(value("secret")));

    HttpResponse<String> r =
        post(URI.create(base + "/decode"), json(sealed), Map.of("Origin", "https://evil.example"));

    assertThat(r.statusCode()).isEqualTo(403);
    assertThat(r.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
    assertThat(r.body()).doesNotContain("secret");
  }

  @Test
  void payloadOfAnUnknownKeyId_is400NamingTheKeyId() throws Exception {
    URI base = start(new CodecEndpoint(codec, List.of(UI), CodecEndpoint.Access.OPEN));
    List<Payload> foreign = new AesGcmPayloadCodec(ring("k-elsewhere")).encode(List.of(value(1)));

    HttpResponse<String> r = post(URI.create(base + "/decode"), json(foreign), Map.of());

    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body()).contains("k-elsewhere");
  }

  @Test
  void authorizationHeader_isHandedToTheAccessCheck() throws Exception {
    URI base =
        start(
            new CodecEndpoint(codec, List.of(UI), (auth, role) -> "Bearer ui-token".equals(auth)));
    String body = json(codec.encode(List.of(value(1))));

    HttpResponse<String> none = post(URI.create(base + "/decode"), body, Map.of());
    HttpResponse<String> wrong =
        post(URI.create(base + "/decode"), body, Map.of("Authorization", "Bearer other"));
    HttpResponse<String> right =
        post(URI.create(base + "/decode"), body, Map.of("Authorization", "Bearer ui-token"));

    assertThat(none.statusCode()).isEqualTo(401);
    assertThat(wrong.statusCode()).isEqualTo(401);
    assertThat(right.statusCode()).isEqualTo(200);
  }

  @Test
  void encode_asksTheAccessCheckForOperate_decodeForRead() throws Exception {
    URI base = start(new CodecEndpoint(codec, List.of(UI), (auth, role) -> role == Role.READ));
    String body = json(List.of(value(1)));

    HttpResponse<String> encode = post(URI.create(base + "/encode"), body, Map.of());
    HttpResponse<String> decode = post(URI.create(base + "/decode"), body, Map.of());

    assertThat(encode.statusCode()).isEqualTo(401);
    assertThat(encode.body()).contains("allowed to operate");
    assertThat(decode.statusCode()).isEqualTo(200);
  }

  @Test
  void malformedBody_is400() throws Exception {
    URI base = start(new CodecEndpoint(codec, List.of(UI), CodecEndpoint.Access.OPEN));

    HttpResponse<String> r = post(URI.create(base + "/decode"), "{\"payloads\": 3}", Map.of());

    assertThat(r.statusCode()).isEqualTo(400);
  }

  @Test
  void withoutACodec_payloadsPassUnchanged() throws Exception {
    URI base = start(new CodecEndpoint(null, List.of(UI), CodecEndpoint.Access.OPEN));
    Payload plain = value("dev");

    HttpResponse<String> r = post(URI.create(base + "/encode"), json(List.of(plain)), Map.of());

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(parse(r.body())).containsExactly(plain);
  }
}
