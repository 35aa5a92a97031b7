package dev.payrelay.api.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.temporal.api.common.v1.Payload;
import io.temporal.common.converter.DataConverter;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.payload.codec.PayloadCodecException;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AesGcmPayloadCodecTest {

  private static final SecureRandom RANDOM = new SecureRandom();

  private static byte[] key() {
    byte[] k = new byte[PayloadKeyRing.KEY_BYTES];
    RANDOM.nextBytes(k);
    return k;
  }

  private static Payload json(Object value) {
    return DefaultDataConverter.STANDARD_INSTANCE.toPayload(value).orElseThrow();
  }

  @Test
  void encode_hidesTheText_andDecodeRestoresThePayloadExactly() {
    AesGcmPayloadCodec codec = new AesGcmPayloadCodec(new PayloadKeyRing("k1", key(), Map.of()));
    Payload plain = json(Map.of("userId", "u-secret-4711", "orderId", "o-secret-42"));

    Payload sealed = codec.encode(List.of(plain)).get(0);

    assertThat(sealed.getMetadataOrThrow("encoding").toStringUtf8()).isEqualTo("binary/encrypted");
    assertThat(sealed.getMetadataOrThrow("encryption-key-id").toStringUtf8()).isEqualTo("k1");
    assertThat(sealed.toByteString().toStringUtf8()).doesNotContain("u-secret-4711", "o-secret-42");
    assertThat(codec.decode(List.of(sealed))).containsExactly(plain);
  }

  @Test
  void sameValueTwice_encryptsDifferently() {
    AesGcmPayloadCodec codec = new AesGcmPayloadCodec(new PayloadKeyRing("k1", key(), Map.of()));
    Payload plain = json("same");

    assertThat(codec.encode(List.of(plain))).isNotEqualTo(codec.encode(List.of(plain)));
  }

  @Test
  void afterRotation_theOldKeyStillDecodes_andNewPayloadsCarryTheNewId() {
    byte[] oldKey = key();
    Payload plain = json("before rotation");
    Payload sealedByOld =
        new AesGcmPayloadCodec(new PayloadKeyRing("2025-01", oldKey, Map.of()))
            .encode(List.of(plain))
            .get(0);

    AesGcmPayloadCodec rotated =
        new AesGcmPayloadCodec(new PayloadKeyRing("2026-01", key(), Map.of("2025-01", oldKey)));

    assertThat(rotated.decode(List.of(sealedByOld))).containsExactly(plain);
    assertThat(
            rotated
                .encode(List.of(plain))
                .get(0)
                .getMetadataOrThrow("encryption-key-id")
                .toStringUtf8())
        .isEqualTo("2026-01");
  }

  @Test
  void unknownKeyId_failsNamingIt() {
    Payload sealed =
        new AesGcmPayloadCodec(new PayloadKeyRing("retired", key(), Map.of()))
            .encode(List.of(json("x")))
            .get(0);
    AesGcmPayloadCodec codec = new AesGcmPayloadCodec(new PayloadKeyRing("k2", key(), Map.of()));

    assertThatThrownBy(() -> codec.decode(List.of(sealed)))
        .isInstanceOf(PayloadCodecException.class)
        .hasMessageContaining("'retired'");
  }

  @Test
  void wrongKeyUnderTheSameId_failsAuthenticationNamingTheId() {
    Payload sealed =
        new AesGcmPayloadCodec(new PayloadKeyRing("k1", key(), Map.of()))
            .encode(List.of(json("x")))
            .get(0);
    AesGcmPayloadCodec other = new AesGcmPayloadCodec(new PayloadKeyRing("k1", key(), Map.of()));

    assertThatThrownBy(() -> other.decode(List.of(sealed)))
        .isInstanceOf(PayloadCodecException.class)
        .hasMessageContaining("'k1'")
        .hasMessageContaining("GCM authentication");
  }

  @Test
  void flippedCiphertextBit_failsTheTag() {
    AesGcmPayloadCodec codec = new AesGcmPayloadCodec(new PayloadKeyRing("k1", key(), Map.of()));
    Payload sealed = codec.encode(List.of(json("amount 1000"))).get(0);
    byte[] data = sealed.getData().toByteArray();
    data[20] ^= 0x01;
    Payload tampered = sealed.toBuilder().setData(ByteString.copyFrom(data)).build();

    assertThatThrownBy(() -> codec.decode(List.of(tampered)))
        .isInstanceOf(PayloadCodecException.class)
        .hasMessageContaining("GCM authentication");
  }

  @Test
  void relabelledKeyId_failsTheTag() {
    byte[] shared = key();
    AesGcmPayloadCodec codec =
        new AesGcmPayloadCodec(new PayloadKeyRing("k1", shared, Map.of("k0", shared)));
    Payload sealed = codec.encode(List.of(json("x"))).get(0);
    Payload relabelled =
        sealed.toBuilder().putMetadata("encryption-key-id", ByteString.copyFromUtf8("k0")).build();

    assertThatThrownBy(() -> codec.decode(List.of(relabelled)))
        .isInstanceOf(PayloadCodecException.class)
        .hasMessageContaining("'k0'");
  }

  @Test
  void unencryptedPayloads_decodeAsTheyAre() {
    AesGcmPayloadCodec codec = new AesGcmPayloadCodec(new PayloadKeyRing("k1", key(), Map.of()));
    Payload plain = json("written before encryption was on");

    assertThat(codec.decode(List.of(plain))).containsExactly(plain);
  }

  @Test
  void dataConverter_roundTripsValues_andEncryptsFailureMessages() {
    DataConverter converter =
        AesGcmPayloadCodec.dataConverter(new PayloadKeyRing("k1", key(), Map.of()));

    Payload sealed = converter.toPayload("u-secret-4711").orElseThrow();
    var failure = converter.exceptionToFailure(new IllegalStateException("user u-secret-4711"));

    assertThat(sealed.toByteString().toStringUtf8()).doesNotContain("u-secret-4711");
    assertThat(converter.fromPayload(sealed, String.class, String.class))
        .isEqualTo("u-secret-4711");
    assertThat(failure.toByteString().toStringUtf8()).doesNotContain("u-secret-4711");
    assertThat(converter.failureToException(failure)).hasMessageContaining("u-secret-4711");
  }

  @Test
  void keyOfWrongLength_isRefusedNamingItsId() {
    assertThatThrownBy(() -> new PayloadKeyRing("k1", new byte[16], Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'k1'")
        .hasMessageContaining("32 bytes");
  }
}
