package dev.payrelay.api.codec;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * The AES-256 keys of the payload codec: one current key that encrypts, and older keys kept only to
 * decrypt what they encrypted before a rotation. Each key has an id, stored in every payload it
 * encrypted, so a payload names the key it needs.
 *
 * <p>{@link #toString()} names the key ids only, never key material.
 */
public final class PayloadKeyRing {

  /** The length of every key in bytes: AES-256. */
  public static final int KEY_BYTES = 32;

  private final String currentId;
  private final Map<String, SecretKey> keys;

  /**
   * A ring with {@code current} (id {@code currentId}) and {@code old} keys by id.
   *
   * @param currentId the id written into new payloads; non-blank
   * @param current the current key, {@value #KEY_BYTES} bytes
   * @param old earlier keys by id, {@value #KEY_BYTES} bytes each, for decoding only
   * @throws IllegalArgumentException for a blank id, a key of another length, or an old key whose
   *     id is the current id
   */
  public PayloadKeyRing(String currentId, byte[] current, Map<String, byte[]> old) {
    if (currentId == null || currentId.isBlank()) {
      throw new IllegalArgumentException("a payload key needs a non-blank key id");
    }
    this.currentId = currentId;
    Map<String, SecretKey> all = new LinkedHashMap<>();
    all.put(currentId, aes(currentId, current));
    old.forEach(
        (id, key) -> {
          if (id == null || id.isBlank() || all.containsKey(id)) {
            throw new IllegalArgumentException(
                "old payload key ids must be non-blank and differ from each other and from the"
                    + " current key id '"
                    + currentId
                    + "', got '"
                    + id
                    + "'");
          }
          all.put(id, aes(id, key));
        });
    this.keys = Map.copyOf(all);
  }

  private static SecretKey aes(String id, byte[] key) {
    if (key == null || key.length != KEY_BYTES) {
      throw new IllegalArgumentException(
          "payload key '"
              + id
              + "' must be "
              + KEY_BYTES
              + " bytes (AES-256), got "
              + (key == null ? 0 : key.length));
    }
    return new SecretKeySpec(key, "AES");
  }

  /** The id of the key that encrypts new payloads. */
  public String currentId() {
    return currentId;
  }

  /** The key with {@code id}, current or old; empty when the ring has no such key. */
  Optional<SecretKey> key(String id) {
    return Optional.ofNullable(keys.get(id));
  }

  @Override
  public String toString() {
    return "PayloadKeyRing[current=" + currentId + ", ids=" + keys.keySet() + "]";
  }
}
