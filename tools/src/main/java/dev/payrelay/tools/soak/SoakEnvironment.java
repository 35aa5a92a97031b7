package dev.payrelay.tools.soak;

import dev.payrelay.api.auth.ApiKeys;
import dev.payrelay.api.auth.Role;
import dev.payrelay.ledger.db.DatabaseConfig;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code PAYRELAY_*} environments of a soak: the children's, whose database, broker and
 * Temporal frontend are the fault proxies, and the direct one (same names, the real servers) for
 * the soak's own reads and the invariant checker. Both start from the soak's own environment
 * (logins, the sandbox secret, …).
 *
 * @param children what {@code payrelay api}, {@code worker} and {@code sandbox} run with
 * @param direct the same with the real database, broker and Temporal
 */
record SoakEnvironment(Map<String, String> children, Map<String, String> direct) {

  /**
   * What the soak changes in the children's behaviour besides names and addresses, printed in its
   * report: no daily reconciliation Schedule (a soak reconciles nothing, and a Schedule in its
   * namespace would only add noise to the workers' logs); refund queries back off to 30 s at most
   * instead of 10 min, so a refund whose queries failed during a fault is asked again within the
   * drain limit (the first query still comes after the default 10 s).
   */
  static final Map<String, String> BEHAVIOUR =
      Map.of("PAYRELAY_RECONCILIATION_DAILY", "false", "PAYRELAY_REFUND_QUERY_MAX", "30s");

  /** Copies the maps. */
  SoakEnvironment {
    children = Map.copyOf(children);
    direct = Map.copyOf(direct);
  }

  /**
   * The environments for a run.
   *
   * @param env the soak's own environment
   * @param database the soak's database, direct
   * @param amqpUri the real broker
   * @param temporal the real Temporal frontend (host:port); the children reach it through its proxy
   */
  static SoakEnvironment of(
      Map<String, String> env,
      SoakNames names,
      DatabaseConfig database,
      String amqpUri,
      String temporal,
      Ports ports) {
    Map<String, String> direct = new HashMap<>(env);
    direct.putAll(BEHAVIOUR);
    // A soak runs on local servers with local logins: its children are a dev stack although they
    // reach Temporal by address, unless the soak's own environment names a profile.
    direct.putIfAbsent("PAYRELAY_PROFILE", "dev");
    direct.put("PAYRELAY_DB_URL", database.jdbcUrl());
    direct.put("PAYRELAY_AMQP_URI", amqpUri);
    direct.put("PAYRELAY_AMQP_EXCHANGE", names.exchange());
    direct.put("PAYRELAY_AMQP_QUEUES", names.queue() + "=payment.#");
    direct.put("PAYRELAY_CONSUMER_QUEUE_PREFIX", names.exchange());
    direct.put("PAYRELAY_TEMPORAL_ADDRESS", temporal);
    direct.put("PAYRELAY_TEMPORAL_NAMESPACE", names.namespace());
    direct.put("PAYRELAY_API_HOST", "127.0.0.1");
    direct.put("PAYRELAY_API_PORT", String.valueOf(ports.api()));
    direct.put("PAYRELAY_PUBLIC_URL", "http://127.0.0.1:" + ports.api());
    direct.put("PAYRELAY_SANDBOX_BIND", "127.0.0.1");
    direct.put("PAYRELAY_SANDBOX_PORT", String.valueOf(ports.sandbox()));
    direct.put("PAYRELAY_SANDBOX_URL", "http://127.0.0.1:" + ports.sandbox());
    // The buyers' key: operate on the soak's own tenant, nothing else.
    ApiKeys.Issued key = ApiKeys.issue(Role.OPERATE, "soak", Set.of(SoakBuyers.TENANT));
    direct.put("PAYRELAY_API_KEYS", key.line());
    direct.put("PAYRELAY_API_KEY", key.token());
    direct.remove("PAYRELAY_API_KEYS_FILE");
    direct.remove("PAYRELAY_ADMIN_PORT");
    Map<String, String> children = new HashMap<>(direct);
    children.put("PAYRELAY_DB_URL", throughProxy(database.jdbcUrl(), ports.dbProxy()));
    children.put("PAYRELAY_AMQP_URI", throughProxy(amqpUri, ports.brokerProxy()));
    children.put("PAYRELAY_TEMPORAL_ADDRESS", "127.0.0.1:" + ports.temporalProxy());
    return new SoakEnvironment(children, direct);
  }

  /** The ports of a run: the fault proxies', the API's and the sandbox's. */
  record Ports(int dbProxy, int brokerProxy, int temporalProxy, int api, int sandbox) {}

  /** {@code url} with its host and port replaced by the proxy's on 127.0.0.1 (login kept). */
  static String throughProxy(String url, int port) {
    URI uri = URI.create(url.startsWith("jdbc:") ? url.substring("jdbc:".length()) : url);
    String login = uri.getRawUserInfo() == null ? "" : uri.getRawUserInfo() + "@";
    return url.replaceFirst(
        Pattern.quote("//" + uri.getRawAuthority()),
        Matcher.quoteReplacement("//" + login + "127.0.0.1:" + port));
  }
}
