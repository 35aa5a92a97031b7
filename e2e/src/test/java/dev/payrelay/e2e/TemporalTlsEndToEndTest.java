package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.ENTITLEMENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.temporal.TemporalConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * payrelay through a TLS front ({@link TlsGrpcProxy}) of the real dev server that demands a client
 * certificate and an API key, with certificates from a CA made for the test ({@link TestPki}).
 */
class TemporalTlsEndToEndTest {

  private static final String API_KEY = "tk-" + Base64.getUrlEncoder().encodeToString(random(18));
  private static final String SERVER_NAME = "temporal.payrelay.test";

  @TempDir static Path dir;
  private static TestPki ca;
  private static TestPki.Issued client;
  private static TlsGrpcProxy proxy;

  @BeforeAll
  static void start() throws Exception {
    ca = new TestPki(dir, "payrelay-test-ca");
    TestPki.Issued server = ca.issue("temporal-front", "dns:" + SERVER_NAME, "serverAuth");
    client = ca.issue("payrelay-worker", null, "clientAuth");
    proxy = new TlsGrpcProxy(RealTemporal.address(), server, ca.caPem(), API_KEY);
  }

  @AfterAll
  static void stop() throws Exception {
    proxy.close();
  }

  /** Settings that reach the dev server through the proxy with everything right. */
  private static Map<String, String> tlsEnv() {
    Map<String, String> env = new HashMap<>();
    env.put("PAYRELAY_TEMPORAL_ADDRESS", proxy.target());
    env.put("PAYRELAY_TEMPORAL_TLS_CA", ca.caPem().toString());
    env.put("PAYRELAY_TEMPORAL_TLS_CERT", client.cert().toString());
    env.put("PAYRELAY_TEMPORAL_TLS_KEY", client.key().toString());
    env.put("PAYRELAY_TEMPORAL_TLS_SERVER_NAME", SERVER_NAME);
    env.put("PAYRELAY_TEMPORAL_API_KEY", API_KEY);
    return env;
  }

  private static PayrelayConfig.TemporalSettings settings(Map<String, String> env) {
    Map<String, String> all = new HashMap<>(RealTemporal.env(TemporalTlsEndToEndTest.class));
    all.putAll(env);
    return PayrelayConfig.fromEnv(all).temporal();
  }

  @Test
  void paymentGoesThrough_withMtlsAndApiKey_andEncryptedPayloads() throws Exception {
    Map<String, String> env = tlsEnv();
    env.put("PAYRELAY_PAYLOAD_KEY", Base64.getEncoder().encodeToString(random(32)));
    env.put("PAYRELAY_PAYLOAD_KEY_ID", "k-tls");
    int before = proxy.clientSubjects.size();
    Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    logs.start();
    root.addAppender(logs);
    try (PayrelayHarness payrelay = new PayrelayHarness(TemporalTlsEndToEndTest.class, env)) {
      String paymentId = payrelay.createPayment(700, "USD", "course-tls");
      assertThat(payrelay.payAtSandbox(paymentId, "{}").statusCode()).isEqualTo(200);

      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  payrelay
                          .stack
                          .services()
                          .database()
                          .dsl()
                          .fetchCount(ENTITLEMENT, ENTITLEMENT.PURCHASE_ID.eq(paymentId))
                      == 1);
    } finally {
      root.detachAppender(logs);
    }
    assertThat(proxy.clientSubjects.subList(before, proxy.clientSubjects.size()))
        .isNotEmpty()
        .allSatisfy(subject -> assertThat(subject).isEqualTo("CN=payrelay-worker"));
    assertThat(proxy.authorizations).contains("Bearer " + API_KEY);
    assertThat(logs.list).as("the run logged").isNotEmpty();
    assertThat(logs.list)
        .allSatisfy(
            e ->
                assertThat(
                        e.getFormattedMessage()
                            + " "
                            + ThrowableProxyUtil.asString(e.getThrowableProxy()))
                    .doesNotContain(API_KEY, env.get("PAYRELAY_PAYLOAD_KEY")));
  }

  @Test
  void serverCertificateFromAnotherCa_failsAtStart_namingTheCaSetting() throws Exception {
    TestPki other = new TestPki(Files.createDirectories(dir.resolve("other")), "other-ca");
    Map<String, String> env = tlsEnv();
    env.put("PAYRELAY_TEMPORAL_TLS_CA", other.caPem().toString());

    assertThatThrownBy(() -> TemporalConnection.open(settings(env)).close())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("TLS with the Temporal frontend at " + proxy.target() + " failed")
        .hasMessageContaining("PAYRELAY_TEMPORAL_TLS_CA");
  }

  @Test
  void wrongServerName_failsAtStart_asTls() {
    Map<String, String> env = tlsEnv();
    env.put("PAYRELAY_TEMPORAL_TLS_SERVER_NAME", "elsewhere.test");

    assertThatThrownBy(() -> TemporalConnection.open(settings(env)).close())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("PAYRELAY_TEMPORAL_TLS_SERVER_NAME");
  }

  @Test
  void wrongApiKey_isRefused_andTheMessageNamesTheSettingNotTheKey() {
    Map<String, String> env = tlsEnv();
    env.put("PAYRELAY_TEMPORAL_API_KEY", "not-the-key");

    assertThatThrownBy(() -> TemporalConnection.open(settings(env)).close())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("refused payrelay's credentials")
        .hasMessageContaining("PAYRELAY_TEMPORAL_API_KEY")
        .hasMessageNotContaining("not-the-key");
  }

  @Test
  void withoutAClientCertificate_theServerRefusesTheConnection() {
    Map<String, String> env = tlsEnv();
    env.remove("PAYRELAY_TEMPORAL_TLS_CERT");
    env.remove("PAYRELAY_TEMPORAL_TLS_KEY");
    int before = proxy.authorizations.size();

    assertThatThrownBy(() -> TemporalConnection.open(settings(env)).close())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("PAYRELAY_TEMPORAL_TLS_CERT");
    assertThat(proxy.authorizations.size()).isEqualTo(before);
  }

  @Test
  void missingCertificateFile_failsAtConfiguration_namingTheSetting() {
    Map<String, String> env = tlsEnv();
    env.put("PAYRELAY_TEMPORAL_TLS_CERT", dir.resolve("missing.pem").toString());

    assertThatThrownBy(() -> settings(env))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("PAYRELAY_TEMPORAL_TLS_CERT")
        .hasMessageContaining("missing.pem");
  }

  private static byte[] random(int n) {
    byte[] b = new byte[n];
    new SecureRandom().nextBytes(b);
    return b;
  }
}
