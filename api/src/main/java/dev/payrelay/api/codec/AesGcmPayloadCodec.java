package dev.payrelay.api.codec;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.temporal.api.common.v1.Payload;
import io.temporal.common.converter.CodecDataConverter;
import io.temporal.common.converter.DataConverter;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.common.converter.EncodingKeys;
import io.temporal.payload.codec.PayloadCodec;
import io.temporal.payload.codec.PayloadCodecException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.List;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

/**
 * Encrypts every Temporal payload (workflow and activity arguments and results, signals, queries,
 * memos, and failure messages through {@link #dataConverter}) with AES-256-GCM, so histories hold
 * no personal data in plain text.
 *
 * <p>An encoded payload has metadata {@code encoding=binary/encrypted} and {@code
 * encryption-key-id=<id>}, and data {@code nonce (12 bytes) || ciphertext || tag (16 bytes)} of the
 * whole serialized original payload, the layout of Temporal's encryption samples, so a codec server
 * of another SDK could read it. The key id is the GCM additional authenticated data: a payload
 * relabelled with another key id fails like a tampered one. Nonces are random per payload (NIST SP
 * 800-38D section 8.2.2), which keeps one key safe for far more payloads than payrelay writes.
 *
 * <p>Decoding leaves payloads of any other encoding as they are, so histories written before
 * encryption was turned on stay readable. Thread-safe.
 */
public final class AesGcmPayloadCodec implements PayloadCodec {

  /** The {@code encoding} metadata value of an encrypted payload. */
  public static final String ENCODING = "binary/encrypted";

  /** The metadata key that names the key a payload was encrypted with. */
  public static final String KEY_ID = "encryption-key-id";

  private static final ByteString ENCODING_BYTES = ByteString.copyFromUtf8(ENCODING);
  private static final String CIPHER = "AES/GCM/NoPadding";
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;

  private final PayloadKeyRing keys;
  private final SecureRandom random = new SecureRandom();

  /** A codec that encrypts with the ring's current key and decrypts with any of its keys. */
  public AesGcmPayloadCodec(PayloadKeyRing keys) {
    this.keys = keys;
  }

  /**
   * The SDK's default JSON/protobuf data converter with this codec after it, failure messages and
   * stack traces included ({@code encodeFailureAttributes}), for a {@code WorkflowClient}.
   */
  public static DataConverter dataConverter(PayloadKeyRing keys) {
    return new CodecDataConverter(
        DefaultDataConverter.newDefaultInstance(), List.of(new AesGcmPayloadCodec(keys)), true);
  }

  @Override
  public List<Payload> encode(List<Payload> payloads) {
    return payloads.stream().map(this::encrypt).toList();
  }

  /**
   * {@inheritDoc}
   *
   * @throws PayloadCodecException naming the key id when the payload's key id is not in the ring,
   *     or when authentication fails (the payload or its key id was altered, or another key was
   *     used under that id)
   */
  @Override
  public List<Payload> decode(List<Payload> payloads) {
    return payloads.stream().map(this::decrypt).toList();
  }

  private Payload encrypt(Payload payload) {
    String keyId = keys.currentId();
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    byte[] sealed;
    try {
      sealed =
          cipher(Cipher.ENCRYPT_MODE, keyId, keys.key(keyId).orElseThrow(), nonce)
              .doFinal(payload.toByteArray());
    } catch (GeneralSecurityException e) {
      throw new PayloadCodecException("cannot encrypt with payload key '" + keyId + "'", e);
    }
    return Payload.newBuilder()
        .putMetadata(EncodingKeys.METADATA_ENCODING_KEY, ENCODING_BYTES)
        .putMetadata(KEY_ID, ByteString.copyFromUtf8(keyId))
        .setData(
            ByteString.copyFrom(
                ByteBuffer.allocate(nonce.length + sealed.length).put(nonce).put(sealed).flip()))
        .build();
  }

  private Payload decrypt(Payload payload) {
    if (!ENCODING_BYTES.equals(
        payload.getMetadataOrDefault(EncodingKeys.METADATA_ENCODING_KEY, null))) {
      return payload;
    }
    ByteString id = payload.getMetadataOrDefault(KEY_ID, null);
    if (id == null) {
      throw new PayloadCodecException("encrypted payload without " + KEY_ID + " metadata");
    }
    String keyId = id.toStringUtf8();
    SecretKey key = ringKey(keyId);
    byte[] data = payload.getData().toByteArray();
    if (data.length < NONCE_BYTES + TAG_BITS / 8) {
      throw new PayloadCodecException(
          "payload encrypted with key id '" + keyId + "' is too short: " + data.length + " bytes");
    }
    try {
      byte[] plain =
          cipher(Cipher.DECRYPT_MODE, keyId, key, java.util.Arrays.copyOf(data, NONCE_BYTES))
              .doFinal(data, NONCE_BYTES, data.length - NONCE_BYTES);
      return Payload.parseFrom(plain);
    } catch (AEADBadTagException e) {
      throw new PayloadCodecException(
          "payload encrypted with key id '"
              + keyId
              + "' failed GCM authentication: altered, or sealed by another key under that id",
          e);
    } catch (GeneralSecurityException | InvalidProtocolBufferException e) {
      throw new PayloadCodecException(
          "cannot decrypt payload encrypted with key id '" + keyId + "'", e);
    }
  }

  /** The ring's key of {@code keyId}, current or old; refused when the ring has no such key. */
  private SecretKey ringKey(String keyId) {
    return keys.key(keyId)
        .orElseThrow(
            () ->
                new PayloadCodecException(
                    "payload encrypted with key id '"
                        + keyId
                        + "', which is neither the current payload key ('"
                        + keys.currentId()
                        + "') nor an old one"));
  }

  private static Cipher cipher(int mode, String keyId, SecretKey key, byte[] nonce)
      throws GeneralSecurityException {
    Cipher cipher = Cipher.getInstance(CIPHER);
    cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
    cipher.updateAAD(keyId.getBytes(StandardCharsets.UTF_8));
    return cipher;
  }
}
