package dev.payrelay.app.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads {@code PAYRELAY_CHANNEL_ACCOUNTS_FILE}: the merchant accounts of tenants that do not use
 * their channel's default account. A JSON file (RFC 8259):
 *
 * <pre>{@code
 * {"accounts": [
 *   {"channel": "sandbox", "merchantId": "m_acme", "tenants": ["acme", "acme-eu"],
 *    "secretFile": "/run/secrets/acme-sandbox"},
 *   {"channel": "sandbox", "merchantId": "m_globex", "tenants": ["globex"],
 *    "secretEnv": "GLOBEX_SANDBOX_SECRET"},
 *   {"channel": "stripe", "merchantId": "acct_1Acme", "tenants": ["acme"],
 *    "credentials": {"apiKey": {"env": "ACME_STRIPE_KEY"},
 *                    "webhookSecret": {"file": "/run/secrets/acme-whsec"}}},
 *   {"channel": "alipay", "merchantId": "2021000000000002", "tenants": ["acme"],
 *    "credentials": {"appPrivateKey": {"file": "/run/secrets/acme-alipay-app-key"},
 *                    "alipayPublicKey": {"file": "/etc/payrelay/acme-alipay-public-key"}}},
 *   {"channel": "wechatpay", "merchantId": "1900000002", "tenants": ["acme"],
 *    "credentials": {"appId": "wx1234567890abcdef", "merchantSerialNumber": "5157F09E...",
 *                    "merchantPrivateKey": {"file": "/run/secrets/acme-apiclient_key.pem"},
 *                    "apiV3Key": {"env": "ACME_WECHATPAY_API_V3_KEY"},
 *                    "publicKeyId": "PUB_KEY_ID_0112...",
 *                    "publicKey": {"file": "/etc/payrelay/acme-wechatpay-pub_key.pem"}}}
 * ]}
 * }</pre>
 *
 * <p>A sandbox account names exactly one of {@code secretFile} (a file holding the secret; one
 * trailing line break is dropped) and {@code secretEnv} (an environment variable holding it). The
 * other channels' accounts give {@code credentials}, each channel's set in {@link #CREDENTIALS}: a
 * secret only as {@code {"file": path}} or {@code {"env": variable}}, so the file itself holds no
 * secret; the others also as plain strings. Merchant ids are unique per channel and differ from the
 * default account's; a tenant has at most one account per channel.
 */
public final class ChannelAccountsFile {

  /** The variable naming the file. */
  public static final String VARIABLE = "PAYRELAY_CHANNEL_ACCOUNTS_FILE";

  /**
   * One credential of a channel's account.
   *
   * @param name its name in {@code credentials}
   * @param secret whether it must come from a file or a variable, never the file's own text
   * @param required whether an account must give it
   */
  record Credential(String name, boolean secret, boolean required) {}

  /**
   * The credentials of each channel's accounts besides the sandbox's, named as the channel's
   * default-account settings are ({@code PAYRELAY_STRIPE_API_KEY} is {@code apiKey}); the optional
   * API address stands in for the channel-wide one, e.g. for a simulator.
   */
  static final Map<String, List<Credential>> CREDENTIALS =
      Map.of(
          "stripe",
          List.of(
              new Credential("apiKey", true, true),
              new Credential("webhookSecret", true, true),
              new Credential("apiBase", false, false)),
          "alipay",
          List.of(
              new Credential("appPrivateKey", true, true),
              new Credential("alipayPublicKey", false, true),
              new Credential("gatewayUrl", false, false)),
          "wechatpay",
          List.of(
              new Credential("appId", false, true),
              new Credential("merchantSerialNumber", false, true),
              new Credential("merchantPrivateKey", true, true),
              new Credential("apiV3Key", true, true),
              new Credential("publicKeyId", false, true),
              new Credential("publicKey", false, true),
              new Credential("baseUrl", false, false)));

  private static final Set<String> FIELDS =
      Set.of("channel", "merchantId", "tenants", "secretFile", "secretEnv", "credentials");
  private static final String SANDBOX = "sandbox";
  private static final int MAX_ID = 64;

  private ChannelAccountsFile() {}

  /**
   * Reads the accounts of {@code file}.
   *
   * @param env the environment {@code secretEnv} names are read from
   * @param defaultMerchants each channel's default merchant id, which no account may reuse
   * @throws IllegalArgumentException naming {@value #VARIABLE}, the account and the field for an
   *     unreadable file, a malformed account, a missing or empty secret or a duplicate
   */
  static List<ChannelAccountSettings> read(
      Path file, Map<String, String> env, Map<String, String> defaultMerchants) {
    JsonNode root = parse(file);
    JsonNode accounts = root == null || !root.isObject() ? null : root.get("accounts");
    if (accounts == null || !accounts.isArray()) {
      throw invalid(file, "must be a JSON object with an array \"accounts\"");
    }
    List<ChannelAccountSettings> read = new ArrayList<>();
    Set<String> merchants = new HashSet<>();
    Set<String> tenants = new HashSet<>();
    for (int i = 0; i < accounts.size(); i++) {
      ChannelAccountSettings account = account(file, i, accounts.get(i), env);
      String channelMerchant = account.channel() + "/" + account.merchantId();
      if (account.merchantId().equals(defaultMerchants.get(account.channel()))
          || !merchants.add(channelMerchant)) {
        throw invalid(file, "accounts[" + i + "]: merchantId " + channelMerchant + " is taken");
      }
      for (String tenant : account.tenants()) {
        if (!tenants.add(account.channel() + "/" + tenant)) {
          throw invalid(
              file, "accounts[" + i + "]: tenant " + tenant + " has another account there");
        }
      }
      read.add(account);
    }
    return read;
  }

  private static ChannelAccountSettings account(
      Path file, int index, JsonNode node, Map<String, String> env) {
    String where = "accounts[" + index + "]";
    if (node == null || !node.isObject()) {
      throw invalid(file, where + " must be an object");
    }
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!FIELDS.contains(name)) {
        throw invalid(file, where + ": unknown field " + name + " (allowed: " + FIELDS + ")");
      }
    }
    String channel = id(file, node, where, "channel");
    if (!channel.equals(SANDBOX) && !CREDENTIALS.containsKey(channel)) {
      throw invalid(file, where + ": unknown channel " + channel);
    }
    String merchantId = id(file, node, where, "merchantId");
    where = where + " (" + channel + "/" + merchantId + ")";
    Set<String> tenants = tenants(file, node, where);
    String account = VARIABLE + " account " + channel + "/" + merchantId;
    if (!channel.equals(SANDBOX)) {
      if (node.has("secretFile") || node.has("secretEnv")) {
        throw invalid(file, where + ": give a " + channel + " account's secrets in credentials");
      }
      Map<String, String> credentials = credentials(file, node, where, channel, account, env);
      return new ChannelAccountSettings(channel, merchantId, tenants, credentials, account);
    }
    if (node.has("credentials")) {
      throw invalid(file, where + ": a sandbox account gives secretFile or secretEnv");
    }
    boolean fromFile = node.has("secretFile");
    if (fromFile == node.has("secretEnv")) {
      throw invalid(file, where + ": give exactly one of secretFile and secretEnv");
    }
    String source = fromFile ? "secretFile" : "secretEnv";
    String reference = id(file, node, where, source);
    String secretSource = account + " (" + source + " " + reference + ")";
    String secret = fromFile ? readSecret(Path.of(reference)) : env.get(reference);
    if (secret == null || secret.isEmpty()) {
      throw new IllegalArgumentException(
          secretSource + " is missing, unreadable or empty (file " + file + ")");
    }
    return new ChannelAccountSettings(
        channel, merchantId, tenants, Map.of("secret", secret), secretSource);
  }

  /** A channel account's credentials, each read from the file or variable it names. */
  private static Map<String, String> credentials(
      Path file,
      JsonNode node,
      String where,
      String channel,
      String account,
      Map<String, String> env) {
    JsonNode given = node.get("credentials");
    if (given == null || !given.isObject()) {
      throw invalid(file, where + ": credentials must be an object");
    }
    List<Credential> known = CREDENTIALS.get(channel);
    for (Iterator<String> names = given.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (known.stream().noneMatch(c -> c.name().equals(name))) {
        throw invalid(
            file,
            where
                + ": unknown credential "
                + name
                + " (a "
                + channel
                + " account has "
                + known.stream().map(Credential::name).toList()
                + ")");
      }
    }
    Map<String, String> credentials = new HashMap<>();
    for (Credential c : known) {
      JsonNode value = given.get(c.name());
      if (value == null) {
        if (c.required()) {
          throw invalid(file, where + ": credentials." + c.name() + " is missing");
        }
        continue;
      }
      credentials.put(c.name(), credential(file, where, account, c, value, env));
    }
    return credentials;
  }

  private static String credential(
      Path file,
      String where,
      String account,
      Credential c,
      JsonNode value,
      Map<String, String> env) {
    String at = where + ": credentials." + c.name();
    if (value.isTextual()) {
      if (c.secret()) {
        throw invalid(
            file, at + " is a secret: give {\"file\": path} or {\"env\": variable}, not its text");
      }
      if (value.asText().isBlank()) {
        throw invalid(file, at + " is empty");
      }
      return value.asText().strip();
    }
    if (!value.isObject()
        || value.size() != 1
        || !(value.has("file") || value.has("env"))
        || !value.elements().next().isTextual()) {
      throw invalid(file, at + " must be {\"file\": path} or {\"env\": variable}");
    }
    boolean fromFile = value.has("file");
    String reference = value.elements().next().asText();
    String read = fromFile ? readSecret(Path.of(reference)) : env.get(reference);
    if (read == null || read.isBlank()) {
      throw new IllegalArgumentException(
          account
              + " credential "
              + c.name()
              + " ("
              + (fromFile ? "file " : "env ")
              + reference
              + ") is missing, unreadable or empty (file "
              + file
              + ")");
    }
    return read.strip();
  }

  private static Set<String> tenants(Path file, JsonNode node, String where) {
    JsonNode array = node.get("tenants");
    if (array == null || !array.isArray() || array.isEmpty()) {
      throw invalid(file, where + ": tenants must be a non-empty array of tenant ids");
    }
    Set<String> tenants = new LinkedHashSet<>();
    for (JsonNode tenant : array) {
      if (!tenant.isTextual() || !validId(tenant.asText())) {
        throw invalid(file, where + ": each tenant must be a 1.." + MAX_ID + " character id");
      }
      tenants.add(tenant.asText());
    }
    return tenants;
  }

  private static String id(Path file, JsonNode node, String where, String field) {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual() || !validId(value.asText())) {
      throw invalid(file, where + ": " + field + " must be a 1.." + MAX_ID + " character string");
    }
    return value.asText();
  }

  /** Like the API's identifiers: no blank ends (PAD SPACE collations), no control characters. */
  private static boolean validId(String value) {
    return !value.isEmpty()
        && value.length() <= MAX_ID
        && value.strip().equals(value)
        && value.chars().noneMatch(Character::isISOControl);
  }

  /**
   * A secret kept in a file: its UTF-8 text without one trailing line break ({@code \n} or {@code
   * \r\n}), as {@code echo secret > file} leaves it.
   *
   * @return null when the file cannot be read
   */
  static String readSecret(Path path) {
    try {
      String text = Files.readString(path, StandardCharsets.UTF_8);
      return text.endsWith("\r\n")
          ? text.substring(0, text.length() - 2)
          : text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
    } catch (IOException e) {
      return null;
    }
  }

  private static JsonNode parse(Path file) {
    try {
      return new ObjectMapper().readTree(Files.readAllBytes(file));
    } catch (JsonProcessingException e) {
      throw invalid(file, "is not JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw invalid(file, "cannot be read: " + e);
    }
  }

  private static IllegalArgumentException invalid(Path file, String problem) {
    return new IllegalArgumentException(VARIABLE + " " + file + " " + problem);
  }
}
