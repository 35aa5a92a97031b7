package dev.payrelay.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.api.auth.ApiKeys;
import dev.payrelay.api.auth.ForbiddenException;
import dev.payrelay.api.auth.Public;
import dev.payrelay.api.auth.Role;
import dev.payrelay.api.auth.RouteGuard;
import dev.payrelay.api.http.ApiJavalin;
import dev.payrelay.api.http.ApiServer;
import io.javalin.Javalin;
import io.javalin.security.RouteRole;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Deny by default: every route declares a role or why it is public, the public ones are exactly the
 * reviewed list, and a route that declares nothing is refused. Real MariaDB behind the API.
 */
class RouteAccessTest {

  private static TestApi api;

  @BeforeAll
  static void start() {
    api = new TestApi(RouteAccessTest.class, true);
  }

  @AfterAll
  static void stop() {
    api.close();
  }

  private static List<String> publicRoutes(boolean adminListener) {
    return api.server.routes(adminListener).stream()
        .filter(r -> r.access() instanceof Public)
        .map(RouteGuard.DeclaredRoute::toString)
        .toList();
  }

  /** A new public route must be added here on purpose: this list is the reviewed exposure. */
  @Test
  void thePublicRoutes_areExactlyTheReviewedOnes() {
    assertThat(publicRoutes(false))
        .containsExactlyInAnyOrder(
            "POST /v1/webhooks/{channel} CHANNEL_SIGNATURE",
            "POST /v1/webhooks/{channel}/{merchant} CHANNEL_SIGNATURE",
            "GET /health/live ANYONE",
            "HEAD /health/live ANYONE",
            "GET /health/ready ANYONE",
            "HEAD /health/ready ANYONE",
            "GET /health ANYONE",
            "HEAD /health ANYONE",
            "GET /openapi.yaml ANYONE",
            "HEAD /openapi.yaml ANYONE",
            "GET /openapi.json ANYONE",
            "HEAD /openapi.json ANYONE");
    assertThat(publicRoutes(true))
        .containsExactlyInAnyOrder(
            "GET /metrics ANYONE",
            "HEAD /metrics ANYONE",
            "OPTIONS /v1/codec/encode ANYONE",
            "OPTIONS /v1/codec/decode ANYONE",
            "POST /v1/codec/encode CODEC_ACCESS",
            "POST /v1/codec/decode CODEC_ACCESS",
            "GET /health/live ANYONE",
            "HEAD /health/live ANYONE",
            "GET /health/ready ANYONE",
            "HEAD /health/ready ANYONE",
            "GET /health ANYONE",
            "HEAD /health ANYONE",
            "GET /openapi.yaml ANYONE",
            "HEAD /openapi.yaml ANYONE",
            "GET /openapi.json ANYONE",
            "HEAD /openapi.json ANYONE");
    assertThat(api.server.routes(true))
        .filteredOn(r -> r.path().startsWith("/v1/admin/"))
        .isNotEmpty()
        .allSatisfy(r -> assertThat(r.access()).isInstanceOf(Role.class));
  }

  @Test
  void head_isAuthenticatedLikeGet_andAnswersWhatGetWould() throws Exception {
    String trail = "/v1/payments/p-missing";
    HttpResponse<String> noKey = api.send("HEAD", false, trail, null, null);
    HttpResponse<String> adminNoKey = api.send("HEAD", true, "/v1/admin/outbox", null, null);
    HttpResponse<String> withKey =
        api.send("HEAD", true, "/v1/admin/outbox", null, api.admin.token());
    HttpResponse<String> missing = api.send("HEAD", false, trail, null, api.admin.token());
    HttpResponse<String> health = api.send("HEAD", false, "/health/live", null, null);

    assertThat(noKey.statusCode()).isEqualTo(401);
    assertThat(noKey.headers().firstValue("WWW-Authenticate")).isPresent();
    assertThat(adminNoKey.statusCode()).isEqualTo(401);
    assertThat(withKey.statusCode()).isEqualTo(200);
    assertThat(withKey.body()).isEmpty();
    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(health.statusCode()).isEqualTo(200);
  }

  @Test
  void aRouteRegisteredWithoutItsAccess_failsTheServersBuild() {
    Javalin j = ApiJavalin.create(ApiServer.jsonMapper(), new RouteGuard(ApiKeys.of(List.of())));

    assertThatThrownBy(() -> j.get("/v1/admin/forgotten", ctx -> ctx.result("secret")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("GET /v1/admin/forgotten must declare exactly one access");
    assertThatThrownBy(() -> j.post("/v1/admin/other", ctx -> {}, new RouteRole() {}))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> j.get("/v1/admin/both", ctx -> {}, Role.READ, Public.ANYONE))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aRouteThatSlippedInWithoutADeclaration_isRefused403_notServed() throws Exception {
    RouteGuard guard = new RouteGuard(ApiKeys.of(List.of(api.admin.key())));
    Javalin j = Javalin.create(cfg -> cfg.showJavalinBanner = false);
    j.beforeMatched(guard::authenticate);
    j.exception(ForbiddenException.class, (e, ctx) -> ctx.status(403).result(e.getMessage()));
    j.get("/forgotten", ctx -> ctx.result("secret"));
    j.start("127.0.0.1", 0);
    try {
      HttpResponse<String> r =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + j.port() + "/forgotten"))
                      .header("Authorization", "Bearer " + api.admin.token())
                      .build(),
                  HttpResponse.BodyHandlers.ofString());

      assertThat(r.statusCode()).isEqualTo(403);
      assertThat(r.body()).doesNotContain("secret").contains("declares no access");
    } finally {
      j.stop();
    }
  }

  @Test
  void everyKeyGuardedRoute_onEitherListener_needsAKey() throws Exception {
    for (boolean adminListener : new boolean[] {false, true}) {
      for (RouteGuard.DeclaredRoute r : api.server.routes(adminListener)) {
        if (!(r.access() instanceof Role)) {
          continue;
        }
        String path = r.path().replaceAll("\\{[^}]+}", "x");
        HttpResponse<String> answer =
            api.send(
                r.method(), adminListener, path, r.method().equals("POST") ? "{}" : null, null);
        assertThat(answer.statusCode()).as(r.toString()).isEqualTo(401);
      }
    }
  }
}
