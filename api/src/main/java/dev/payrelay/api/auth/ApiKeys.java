package dev.payrelay.api.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The API keys payrelay accepts, held as SHA-256 hashes (the keys themselves are never stored).
 *
 * <p>A key is a bearer token (RFC 6750) {@code prk_<id>_<secret>}: {@code id} is {@code
 * [a-z0-9]{4,32}}, {@code secret} is 32 random bytes in unpadded base64url (RFC 4648 §5). Because
 * the secret has 256 bits of entropy, one SHA-256 of the whole token is a safe verifier; slow
 * password hashes are for secrets people choose.
 *
 * <p>Configuration text has one key per line (blank lines and {@code #} comments ignored; {@code ;}
 * also separates entries, for environment variables):
 *
 * <pre>{@code <id> <role> <operator> <tenants> <sha256-hex>}</pre>
 *
 * e.g. {@code k7f3a9 operate alice t1,t2 9f86d0...}; {@code tenants} is a comma-separated list or
 * {@code *} for every tenant. {@code payrelay apikey new} prints a fresh key and its line.
 */
public final class ApiKeys {

  /** Every token starts with this. */
  public static final String PREFIX = "prk_";

  private static final Pattern ID = Pattern.compile("[a-z0-9]{4,32}");
  private static final Pattern OPERATOR = Pattern.compile("[A-Za-z0-9._@-]{1,64}");
  private static final Pattern TENANT = Pattern.compile("[A-Za-z0-9._:-]{1,64}");
  private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-fA-F]{64}");
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Map<String, ApiKey> byId;

  private ApiKeys(Map<String, ApiKey> byId) {
    this.byId = Map.copyOf(byId);
  }

  /** No keys: every endpoint that needs one answers 401. */
  public static ApiKeys none() {
    return new ApiKeys(Map.of());
  }

  /** Exactly these keys. */
  public static ApiKeys of(List<ApiKey> keys) {
    Map<String, ApiKey> byId = new LinkedHashMap<>();
    for (ApiKey k : keys) {
      if (byId.put(k.id(), k) != null) {
        throw new IllegalArgumentException("API key id " + k.id() + " appears twice");
      }
    }
    return new ApiKeys(byId);
  }

  /**
   * Parses configuration text (format in the class comment).
   *
   * @param source what the text came from, for error messages (a setting's name or a file)
   * @throws IllegalArgumentException naming {@code source} and the entry's number for a malformed
   *     entry or a repeated id; the message never contains a hash
   */
  public static ApiKeys parse(String text, String source) {
    List<ApiKey> keys = new ArrayList<>();
    int n = 0;
    for (String entry : text.split("[;\\n]")) {
      String line = entry.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      n++;
      keys.add(entry(line, source + ", key " + n));
    }
    try {
      return of(keys);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
    }
  }

  /**
   * {@code value} when it is an operator name as an API key's operator must be: 1 to 64 characters
   * of {@code A-Z a-z 0-9 . _ @ -}. The one rule of every operator name payrelay records in {@code
   * operator_action}, whether it comes from a key or from a command's {@code --operator}.
   *
   * @param where what gave the name, for the message (an option, a setting and key number)
   * @throws IllegalArgumentException "where: operator must match ..., got: value"
   */
  public static String operatorName(String value, String where) {
    require(OPERATOR, value, where, "operator");
    return value;
  }

  /** One entry, {@code <id> <role> <operator> <tenants> <sha256-hex>}; {@code where} names it. */
  private static ApiKey entry(String line, String where) {
    String[] f = line.split("\\s+");
    if (f.length != 5) {
      throw new IllegalArgumentException(
          where
              + ": expected '<id> <role> <operator> <tenants> <sha256-hex>', got "
              + f.length
              + " field(s)");
    }
    require(ID, f[0], where, "id");
    Role role;
    try {
      role = Role.parse(f[1]);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
    }
    operatorName(f[2], where);
    Set<String> tenants = tenants(f[3], where);
    if (!SHA256_HEX.matcher(f[4]).matches()) {
      throw new IllegalArgumentException(where + ": the hash must be 64 hex digits (SHA-256)");
    }
    return new ApiKey(f[0], role, f[2], tenants, HexFormat.of().parseHex(f[4]));
  }

  /** A comma-separated list of tenants, or {@code *} alone for every tenant. */
  private static Set<String> tenants(String field, String where) {
    Set<String> tenants = new LinkedHashSet<>();
    for (String t : field.split(",")) {
      if (!t.equals(ApiKey.ALL_TENANTS)) {
        require(TENANT, t, where, "tenant");
      }
      tenants.add(t);
    }
    if (tenants.contains(ApiKey.ALL_TENANTS) && tenants.size() > 1) {
      throw new IllegalArgumentException(
          where + ": tenants is either * (every tenant) or a list of tenants, not both");
    }
    return tenants;
  }

  private static void require(Pattern p, String value, String where, String what) {
    if (!p.matcher(value).matches()) {
      throw new IllegalArgumentException(
          where + ": " + what + " must match " + p.pattern() + ", got: " + value);
    }
  }

  /** These keys and {@code more}'s. */
  public ApiKeys and(ApiKeys more) {
    List<ApiKey> all = new ArrayList<>(byId.values());
    all.addAll(more.byId.values());
    return of(all);
  }

  /** Whether there are no keys at all. */
  public boolean isEmpty() {
    return byId.isEmpty();
  }

  /** How many keys there are. */
  public int size() {
    return byId.size();
  }

  /**
   * The key {@code token} is, if it is one of these: its id names the entry, and its SHA-256 must
   * equal the stored one (compared in constant time).
   */
  public Optional<ApiKey> authenticate(String token) {
    if (token == null || !token.startsWith(PREFIX)) {
      return Optional.empty();
    }
    int end = token.indexOf('_', PREFIX.length());
    if (end < 0) {
      return Optional.empty();
    }
    ApiKey key = byId.get(token.substring(PREFIX.length(), end));
    if (key == null || !MessageDigest.isEqual(sha256(token), key.sha256())) {
      return Optional.empty();
    }
    return Optional.of(key);
  }

  /**
   * A fresh key: its token (shown once, to hand to its user) and the configuration line that
   * accepts it.
   *
   * @param token {@code prk_<id>_<secret>}
   * @param line the configuration entry, {@code <id> <role> <operator> <tenants> <sha256-hex>}
   * @param key the parsed entry
   */
  public record Issued(String token, String line, ApiKey key) {
    @Override
    public String toString() {
      return "Issued[" + key + "]";
    }
  }

  /**
   * Makes a fresh key with a random id and secret.
   *
   * @throws IllegalArgumentException for an operator or tenant the configuration format refuses
   */
  public static Issued issue(Role role, String operator, Set<String> tenants) {
    byte[] idBytes = new byte[6];
    byte[] secret = new byte[32];
    RANDOM.nextBytes(idBytes);
    RANDOM.nextBytes(secret);
    return accept(
        PREFIX
            + HexFormat.of().formatHex(idBytes)
            + "_"
            + Base64.getUrlEncoder().withoutPadding().encodeToString(secret),
        role,
        operator,
        tenants);
  }

  /**
   * The entry that accepts an existing token, e.g. one kept in a file between runs.
   *
   * @throws IllegalArgumentException for a token that is not {@code prk_<id>_<secret>} with a
   *     secret of at least 32 characters, or an operator or tenant the format refuses
   */
  public static Issued accept(String token, Role role, String operator, Set<String> tenants) {
    int end = token.startsWith(PREFIX) ? token.indexOf('_', PREFIX.length()) : -1;
    if (end < 0 || token.length() - end - 1 < 32) {
      throw new IllegalArgumentException(
          "an API key must look like prk_<id>_<secret of 32+ characters>");
    }
    String id = token.substring(PREFIX.length(), end);
    String line =
        id
            + " "
            + role.label()
            + " "
            + operator
            + " "
            + String.join(",", tenants)
            + " "
            + HexFormat.of().formatHex(sha256(token));
    return new Issued(token, line, parse(line, "API key " + id).byId.get(id));
  }

  private static byte[] sha256(String token) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
