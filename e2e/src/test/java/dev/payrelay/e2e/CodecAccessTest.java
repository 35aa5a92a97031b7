package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.api.auth.ApiKey;
import dev.payrelay.api.auth.ApiKeys;
import dev.payrelay.api.auth.Role;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.runtime.ApiRuntime;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Who the codec endpoint decodes for, with payload encryption on. */
class CodecAccessTest {

  private static final ApiKeys.Issued EVERY_TENANT =
      ApiKeys.issue(Role.READ, "rita", Set.of(ApiKey.ALL_TENANTS));
  private static final ApiKeys.Issued ONE_TENANT =
      ApiKeys.issue(Role.ADMIN, "otto", Set.of("acme"));
  private static final ApiKeys.Issued OPERATOR =
      ApiKeys.issue(Role.OPERATE, "olga", Set.of(ApiKey.ALL_TENANTS));
  private static final ApiKeys KEYS =
      ApiKeys.of(List.of(EVERY_TENANT.key(), ONE_TENANT.key(), OPERATOR.key()));

  /** Payload encryption on, against a Temporal server payrelay does not run itself. */
  private static Map<String, String> encrypted() {
    Map<String, String> env = encryptedOnTheLocalDevServer();
    env.put("PAYRELAY_TEMPORAL_ADDRESS", "temporal.internal:7233");
    env.put("PAYRELAY_PROFILE", "dev");
    return env;
  }

  /** Payload encryption on, with payrelay's own local dev server (no address). */
  private static Map<String, String> encryptedOnTheLocalDevServer() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    Map<String, String> env = new HashMap<>();
    env.put("PAYRELAY_PAYLOAD_KEY", Base64.getEncoder().encodeToString(key));
    env.put("PAYRELAY_PAYLOAD_KEY_ID", "k1");
    return env;
  }

  /** Its Web UI sends no key: the dev server's codec is open unless told otherwise. */
  @Test
  void onTheLocalDevServer_theCodecIsOpenByDefault_andKeyWhenAsked() {
    assertThat(
            ApiRuntime.codecAccess(PayrelayConfig.fromEnv(encryptedOnTheLocalDevServer()), KEYS)
                .allows(null, Role.READ))
        .isTrue();
    Map<String, String> key = encryptedOnTheLocalDevServer();
    key.put("PAYRELAY_CODEC_AUTH", "key");
    assertThat(ApiRuntime.codecAccess(PayrelayConfig.fromEnv(key), KEYS).allows(null, Role.READ))
        .isFalse();
    Map<String, String> prod = encryptedOnTheLocalDevServer();
    prod.put("PAYRELAY_PROFILE", "prod");
    assertThat(ApiRuntime.codecAccess(PayrelayConfig.fromEnv(prod), KEYS).allows(null, Role.READ))
        .isFalse();
  }

  @Test
  void withEncryption_onlyAKeyForEveryTenantDecodes() {
    var access = ApiRuntime.codecAccess(PayrelayConfig.fromEnv(encrypted()), KEYS);

    assertThat(access.allows("Bearer " + EVERY_TENANT.token(), Role.READ)).isTrue();
    assertThat(access.allows("Bearer " + ONE_TENANT.token(), Role.READ)).isFalse();
    assertThat(access.allows("Bearer prk_x_" + "a".repeat(43), Role.READ)).isFalse();
    assertThat(access.allows(null, Role.READ)).isFalse();
  }

  /** A payload encrypted with the production key could ride a raw signal: operate keys only. */
  @Test
  void withEncryption_encodingNeedsAnOperateKeyForEveryTenant_aReadKeyIsRefused() {
    var access = ApiRuntime.codecAccess(PayrelayConfig.fromEnv(encrypted()), KEYS);

    assertThat(access.allows("Bearer " + EVERY_TENANT.token(), Role.OPERATE)).isFalse();
    assertThat(access.allows("Bearer " + ONE_TENANT.token(), Role.OPERATE)).isFalse();
    assertThat(access.allows("Bearer " + OPERATOR.token(), Role.OPERATE)).isTrue();
  }

  @Test
  void openOnRequest_orWithoutEncryption_decodesForAnyone() {
    Map<String, String> open = encrypted();
    open.put("PAYRELAY_CODEC_AUTH", "open");

    assertThat(
            ApiRuntime.codecAccess(PayrelayConfig.fromEnv(open), KEYS).allows(null, Role.OPERATE))
        .isTrue();
    assertThat(
            ApiRuntime.codecAccess(PayrelayConfig.fromEnv(Map.of()), KEYS)
                .allows(null, Role.OPERATE))
        .isTrue();
  }
}
