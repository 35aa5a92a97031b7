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

  private static Map<String, String> encrypted() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    Map<String, String> env = new HashMap<>();
    env.put("PAYRELAY_PAYLOAD_KEY", Base64.getEncoder().encodeToString(key));
    env.put("PAYRELAY_PAYLOAD_KEY_ID", "k1");
    return env;
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
