package dev.payrelay.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.temporal.common.converter.CodecDataConverter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TemporalSecurityTest {

  private static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);

  @TempDir Path dir;

  @Test
  void noSettings_plainTextNoKeyNoCodec_localUiOrigins() {
    TemporalSecurity s = security(Map.of());

    assertThat(s.tls()).isNull();
    assertThat(s.apiKey()).isNull();
    assertThat(s.payloadCodec()).isEmpty();
    assertThat(s.dataConverter()).isNotInstanceOf(CodecDataConverter.class);
    assertThat(s.codecCorsOrigins())
        .containsExactly("http://127.0.0.1:8233", "http://localhost:8233");
  }

  @Test
  void payloadKey_fromAFile_turnsTheCodecOn_andToStringShowsIdsOnly() throws Exception {
    Path file = Files.writeString(dir.resolve("payload.key"), KEY + "\n");
    String old = Base64.getEncoder().encodeToString(new byte[32]).replace('A', 'B');

    TemporalSecurity s =
        security(
            Map.of(
                "PAYRELAY_PAYLOAD_KEY_FILE",
                file.toString(),
                "PAYRELAY_PAYLOAD_KEY_ID",
                "2026-11",
                "PAYRELAY_PAYLOAD_OLD_KEYS",
                "2026-01:" + old));

    assertThat(s.dataConverter()).isInstanceOf(CodecDataConverter.class);
    assertThat(s.payloadKeys().currentId()).isEqualTo("2026-11");
    assertThat(s.toString()).contains("2026-11", "2026-01").doesNotContain(KEY, old);
  }

  @Test
  void payloadKey_withoutItsId_isRefusedNamingTheSetting() {
    assertThatThrownBy(() -> security(Map.of("PAYRELAY_PAYLOAD_KEY", KEY)))
        .hasMessageContaining("PAYRELAY_PAYLOAD_KEY_ID");
  }

  @Test
  void payloadKey_ofSixteenBytes_isRefusedWithoutShowingIt() {
    String short16 = Base64.getEncoder().encodeToString(new byte[16]);
    assertThatThrownBy(
            () -> security(Map.of("PAYRELAY_PAYLOAD_KEY", short16, "PAYRELAY_PAYLOAD_KEY_ID", "k")))
        .hasMessageContaining("PAYRELAY_PAYLOAD_KEY")
        .hasMessageContaining("32 bytes")
        .hasMessageNotContaining(short16);
  }

  @Test
  void missingKeyFile_failsNamingTheSettingAndPath() {
    Path missing = dir.resolve("nope.key");
    assertThatThrownBy(
            () ->
                security(
                    Map.of(
                        "PAYRELAY_PAYLOAD_KEY_FILE",
                        missing.toString(),
                        "PAYRELAY_PAYLOAD_KEY_ID",
                        "k")))
        .hasMessageContaining("PAYRELAY_PAYLOAD_KEY_FILE")
        .hasMessageContaining(missing.toString());
  }

  @Test
  void apiKey_andItsFileTogether_areRefused_andTheKeyNeverShows() throws Exception {
    Path file = Files.writeString(dir.resolve("api.key"), "secret-api-key");
    assertThatThrownBy(
            () ->
                security(
                    Map.of(
                        "PAYRELAY_TEMPORAL_API_KEY",
                        "other",
                        "PAYRELAY_TEMPORAL_API_KEY_FILE",
                        file.toString())))
        .hasMessageContaining("not both");

    TemporalSecurity s = security(Map.of("PAYRELAY_TEMPORAL_API_KEY_FILE", file.toString()));
    assertThat(s.apiKey()).isEqualTo("secret-api-key");
    assertThat(s.tls()).as("an API key implies TLS").isNotNull();
    assertThat(s.toString()).doesNotContain("secret-api-key");
  }

  @Test
  void clientCertificateWithoutItsKey_isRefusedNamingTheMissingOne() throws Exception {
    Path cert = Files.writeString(dir.resolve("client.pem"), "x");
    assertThatThrownBy(() -> security(Map.of("PAYRELAY_TEMPORAL_TLS_CERT", cert.toString())))
        .hasMessageContaining("PAYRELAY_TEMPORAL_TLS_KEY is missing");
  }

  @Test
  void tlsFalse_withACertificate_isAContradiction() throws Exception {
    Path cert = Files.writeString(dir.resolve("client.pem"), "x");
    Path key = Files.writeString(dir.resolve("client.key"), "x");
    assertThatThrownBy(
            () ->
                security(
                    Map.of(
                        "PAYRELAY_TEMPORAL_TLS", "false",
                        "PAYRELAY_TEMPORAL_TLS_CERT", cert.toString(),
                        "PAYRELAY_TEMPORAL_TLS_KEY", key.toString())))
        .hasMessageContaining("PAYRELAY_TEMPORAL_TLS=false");
  }

  @Test
  void filesThatAreNotPem_failAtStartNamingTheSettings() throws Exception {
    Path cert = Files.writeString(dir.resolve("client.pem"), "not a certificate");
    Path key = Files.writeString(dir.resolve("client.key"), "not a key");
    Path ca = Files.writeString(dir.resolve("ca.pem"), "not a CA");

    assertThatThrownBy(
            () ->
                security(
                    Map.of(
                        "PAYRELAY_TEMPORAL_TLS_CERT", cert.toString(),
                        "PAYRELAY_TEMPORAL_TLS_KEY", key.toString())))
        .hasMessageContaining("PAYRELAY_TEMPORAL_TLS_CERT/PAYRELAY_TEMPORAL_TLS_KEY")
        .hasMessageContaining("client.pem");
    assertThatThrownBy(() -> security(Map.of("PAYRELAY_TEMPORAL_TLS_CA", ca.toString())))
        .hasMessageContaining("PAYRELAY_TEMPORAL_TLS_CA")
        .hasMessageContaining("ca.pem");
  }

  @Test
  void tlsTrue_alone_usesTheJvmTrustStore() {
    TemporalSecurity s = security(Map.of("PAYRELAY_TEMPORAL_TLS", "true"));
    assertThat(s.tls()).isNotNull();
    assertThat(s.tls().toString()).contains("JVM trust store");
    assertThatThrownBy(() -> security(Map.of("PAYRELAY_TEMPORAL_TLS", "yes")))
        .hasMessage("PAYRELAY_TEMPORAL_TLS must be true or false, got: yes");
  }

  @Test
  void codecOrigins_defaultToTheLocalUiAtItsConfiguredPort() {
    // PayrelayConfig passes PAYRELAY_TEMPORAL_UI_PORT: `payrelay dev` starts the UI there.
    PayrelayConfig dev = PayrelayConfig.fromEnv(Map.of("PAYRELAY_TEMPORAL_UI_PORT", "18233"));

    assertThat(dev.temporal().security().codecCorsOrigins())
        .containsExactly("http://127.0.0.1:18233", "http://localhost:18233");
    assertThat(
            PayrelayConfig.fromEnv(
                    Map.of(
                        "PAYRELAY_TEMPORAL_UI_PORT", "18233",
                        "PAYRELAY_CODEC_CORS_ORIGIN", "https://temporal.example.com"))
                .temporal()
                .security()
                .codecCorsOrigins())
        .containsExactly("https://temporal.example.com");
  }

  @Test
  void codecOrigins_areConfigurable() {
    TemporalSecurity s =
        security(Map.of("PAYRELAY_CODEC_CORS_ORIGIN", "https://temporal.example.com/, http://x:1"));
    assertThat(s.codecCorsOrigins()).containsExactly("https://temporal.example.com", "http://x:1");
  }

  private static TemporalSecurity security(Map<String, String> env) {
    return PayrelayConfig.fromEnv(env).temporal().security();
  }
}
