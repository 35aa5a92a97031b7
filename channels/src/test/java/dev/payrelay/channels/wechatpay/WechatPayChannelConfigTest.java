package dev.payrelay.channels.wechatpay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class WechatPayChannelConfigTest {

  private static WechatPayChannelConfig config(String apiV3Key, URI base) {
    return new WechatPayChannelConfig(
        base,
        "1900000001",
        "wx8888888888888888",
        "SERIAL",
        "PRIVATE-KEY-TEXT",
        "PUB_KEY_ID_1",
        "PUBLIC-KEY-TEXT",
        apiV3Key,
        URI.create("https://payrelay.example/webhooks/wechatpay"),
        Duration.ofSeconds(2),
        Duration.ofSeconds(5));
  }

  @Test
  void toString_keepsKeysOut() {
    String text =
        config("0123456789abcdefghijABCDEFGHIJ01", WechatPayChannelConfig.PRODUCTION_API)
            .toString();
    assertThat(text).contains("1900000001", "PUB_KEY_ID_1");
    assertThat(text).doesNotContain("PRIVATE-KEY-TEXT", "0123456789abcdefghij");
  }

  @Test
  void apiV3Key_mustBe32PrintableAscii() {
    assertThatThrownBy(() -> config("short", WechatPayChannelConfig.PRODUCTION_API))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> config("0123456789abcdefghijABCDEFGHIJ0é", WechatPayChannelConfig.PRODUCTION_API))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void apiBaseUrl_mustBeAbsoluteHttp() {
    assertThatThrownBy(
            () -> config("0123456789abcdefghijABCDEFGHIJ01", URI.create("ftp://example/x")))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
