package dev.payrelay.app.config;

import dev.payrelay.app.config.binder.Binding;
import dev.payrelay.app.config.binder.SettingsModel;
import dev.payrelay.app.config.mapping.TemporalMapping;
import io.grpc.Metadata;
import io.temporal.envconfig.ClientConfigProfile;
import io.temporal.envconfig.ClientConfigTLS;
import io.temporal.envconfig.LoadClientConfigProfileOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Temporal client's connection settings: Temporal's own client configuration, as the {@code
 * temporal} CLI and the Java SDK's temporal-envconfig read it ({@link ClientConfigProfile}: the
 * {@code TEMPORAL_*} variables over the {@code temporal.toml} profile named by {@code
 * TEMPORAL_PROFILE}, default {@code default}, in the file {@code TEMPORAL_CONFIG_FILE} or the
 * user's config directory), with each {@code PAYRELAY_TEMPORAL_*} setting that is set winning over
 * the matching field. So one profile serves the CLI, the Temporal UI runbook and payrelay, and
 * payrelay's own settings still override it for one process (the soak's proxy, compose).
 *
 * @param address the frontend's host:port, null for the local server
 * @param namespace the namespace
 * @param apiKey the API key, null for none
 * @param tls the TLS inputs, each naming where it came from
 * @param metadata gRPC metadata sent with every call ({@code TEMPORAL_GRPC_META_*}), or null
 * @param sources where {@code address}, {@code namespace} and {@code apiKey} came from, by field
 *     name: the setting or variable ({@code PAYRELAY_TEMPORAL_ADDRESS}, {@code TEMPORAL_ADDRESS}),
 *     the {@code temporal.toml} profile, or {@code unset}
 */
public record TemporalClientConfig(
    String address,
    String namespace,
    String apiKey,
    TemporalTls.Inputs tls,
    Metadata metadata,
    Map<String, String> sources) {

  /**
   * One of Temporal's own variables this configuration reads (temporal-envconfig's names).
   *
   * @param name the variable
   * @param overriddenBy payrelay's setting that wins over it when set, or null
   * @param meaning what it sets
   */
  public record TemporalVariable(String name, String overriddenBy, String meaning) {}

  /** Temporal's variables, as the reference lists them; each also a {@code temporal.toml} field. */
  public static final List<TemporalVariable> TEMPORAL_VARIABLES =
      List.of(
          new TemporalVariable(
              "TEMPORAL_ADDRESS", "PAYRELAY_TEMPORAL_ADDRESS", "host:port of the frontend"),
          new TemporalVariable(
              "TEMPORAL_NAMESPACE", "PAYRELAY_TEMPORAL_NAMESPACE", "the namespace"),
          new TemporalVariable(
              "TEMPORAL_API_KEY", "PAYRELAY_TEMPORAL_API_KEY", "an API key (implies TLS)"),
          new TemporalVariable("TEMPORAL_TLS", "PAYRELAY_TEMPORAL_TLS", "true or false"),
          new TemporalVariable(
              "TEMPORAL_TLS_SERVER_CA_CERT_PATH", "PAYRELAY_TEMPORAL_TLS_CA", "the CA's PEM file"),
          new TemporalVariable(
              "TEMPORAL_TLS_SERVER_CA_CERT_DATA", "PAYRELAY_TEMPORAL_TLS_CA", "the CA's PEM"),
          new TemporalVariable(
              "TEMPORAL_TLS_CLIENT_CERT_PATH",
              "PAYRELAY_TEMPORAL_TLS_CERT",
              "the client certificate's PEM file (mTLS)"),
          new TemporalVariable(
              "TEMPORAL_TLS_CLIENT_CERT_DATA",
              "PAYRELAY_TEMPORAL_TLS_CERT",
              "the client certificate's PEM"),
          new TemporalVariable(
              "TEMPORAL_TLS_CLIENT_KEY_PATH",
              "PAYRELAY_TEMPORAL_TLS_KEY",
              "the client key's PKCS#8 PEM file"),
          new TemporalVariable(
              "TEMPORAL_TLS_CLIENT_KEY_DATA", "PAYRELAY_TEMPORAL_TLS_KEY", "the client key's PEM"),
          new TemporalVariable(
              "TEMPORAL_TLS_SERVER_NAME",
              "PAYRELAY_TEMPORAL_TLS_SERVER_NAME",
              "the SNI/authority name"),
          new TemporalVariable(
              "TEMPORAL_TLS_DISABLE_HOST_VERIFICATION",
              null,
              "true trusts any server certificate when no CA is given (tests only)"),
          new TemporalVariable(
              "TEMPORAL_GRPC_META_<NAME>", null, "a gRPC header <name> sent with every call"),
          new TemporalVariable(
              "TEMPORAL_PROFILE", null, "the temporal.toml profile; default default"),
          new TemporalVariable(
              "TEMPORAL_CONFIG_FILE",
              null,
              "the temporal.toml file; default the user's ($HOME/.config/temporalio/temporal.toml"
                  + " on Linux)"));

  /** The namespace when neither payrelay's setting nor Temporal's configuration names one. */
  public static final String DEFAULT_NAMESPACE = "default";

  /** Copies the sources. */
  public TemporalClientConfig {
    sources = Map.copyOf(sources);
  }

  /**
   * Resolves the settings of {@code binding}.
   *
   * @throws IllegalArgumentException naming the file or profile when Temporal's configuration
   *     cannot be read, or the setting whose secret file cannot
   */
  public static TemporalClientConfig resolve(Binding binding) {
    TemporalMapping t = binding.mapping().temporal();
    Map<String, String> env = binding.env();
    ClientConfigProfile profile = load(env);
    Origin origin = new Origin(binding, env, profileName(env));
    ClientConfigTLS tls = profile.getTls();
    String apiKey = SecretSetting.read("PAYRELAY_TEMPORAL_API_KEY", t.apiKey(), t.apiKeyFile());
    Map<String, String> sources =
        Map.of(
            "address",
            origin.of("temporal.address", t.address(), "TEMPORAL_ADDRESS", profile.getAddress()),
            "namespace",
            origin.of(
                "temporal.namespace", t.namespace(), "TEMPORAL_NAMESPACE", profile.getNamespace()),
            "apiKey",
            origin.of(
                t.apiKeyFile().isPresent() ? "temporal.api-key-file" : "temporal.api-key",
                Optional.ofNullable(apiKey),
                "TEMPORAL_API_KEY",
                profile.getApiKey()));
    return new TemporalClientConfig(
        t.address().orElse(blankToNull(profile.getAddress())),
        t.namespace()
            .orElse(
                Optional.ofNullable(blankToNull(profile.getNamespace())).orElse(DEFAULT_NAMESPACE)),
        apiKey != null ? apiKey.strip() : blankToNull(profile.getApiKey()),
        tlsInputs(t, tls, origin),
        profile.getMetadata(),
        sources);
  }

  private static TemporalTls.Inputs tlsInputs(TemporalMapping t, ClientConfigTLS tls, Origin o) {
    ClientConfigTLS p = tls == null ? ClientConfigTLS.getDefaultInstance() : tls;
    Boolean profileFlag = tls == null ? null : !Boolean.TRUE.equals(tls.isDisabled());
    String flagSetting =
        t.tls().isPresent()
            ? "PAYRELAY_TEMPORAL_TLS"
            : o.envOrProfile("TEMPORAL_TLS", "tls.disabled");
    return new TemporalTls.Inputs(
        t.tls().orElse(profileFlag),
        flagSetting,
        pem(
            t.tlsCa(),
            "PAYRELAY_TEMPORAL_TLS_CA",
            p.getServerCACertPath(),
            p.getServerCACertData(),
            o,
            "TEMPORAL_TLS_SERVER_CA_CERT"),
        pem(
            t.tlsCert(),
            "PAYRELAY_TEMPORAL_TLS_CERT",
            p.getClientCertPath(),
            p.getClientCertData(),
            o,
            "TEMPORAL_TLS_CLIENT_CERT"),
        pem(
            t.tlsKey(),
            "PAYRELAY_TEMPORAL_TLS_KEY",
            p.getClientKeyPath(),
            p.getClientKeyData(),
            o,
            "TEMPORAL_TLS_CLIENT_KEY"),
        t.tlsServerName().orElse(blankToNull(p.getServerName())),
        Boolean.TRUE.equals(p.isDisableHostVerification()));
  }

  /** A PEM input: payrelay's file, else the profile's path, else the profile's inline data. */
  private static TemporalTls.Pem pem(
      Optional<Path> override,
      String setting,
      String path,
      byte[] data,
      Origin o,
      String temporal) {
    if (override.isPresent()) {
      return new TemporalTls.Pem(setting, override.get(), null);
    }
    if (path != null && !path.isEmpty()) {
      return new TemporalTls.Pem(
          o.envOrProfile(temporal + "_PATH", "tls path"), Path.of(path), null);
    }
    if (data != null && data.length > 0) {
      return new TemporalTls.Pem(o.envOrProfile(temporal + "_DATA", "tls data"), null, data);
    }
    return null;
  }

  private static ClientConfigProfile load(Map<String, String> env) {
    try {
      return ClientConfigProfile.load(
          LoadClientConfigProfileOptions.newBuilder().setEnvOverrides(env).build());
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "Temporal's client configuration (TEMPORAL_CONFIG_FILE "
              + env.getOrDefault("TEMPORAL_CONFIG_FILE", "unset, the default temporal.toml")
              + ") cannot be read: "
              + e.getMessage(),
          e);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "TEMPORAL_PROFILE " + profileName(env) + ": " + e.getMessage(), e);
    }
  }

  private static String profileName(Map<String, String> env) {
    String named = env.get("TEMPORAL_PROFILE");
    return named == null || named.isEmpty() ? "default" : named;
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value.strip();
  }

  /**
   * Names where a value came from: payrelay's setting, a {@code TEMPORAL_*} variable, the profile.
   */
  private record Origin(Binding binding, Map<String, String> env, String profile) {

    String of(String property, Optional<?> override, String variable, String fromProfile) {
      if (override.isPresent()) {
        return SettingsModel.byProperty("payrelay." + property)
            .map(binding::label)
            .orElse(property);
      }
      if (blankToNull(fromProfile) == null) {
        return "unset";
      }
      return envOrProfile(variable, property.substring(property.indexOf('.') + 1));
    }

    String envOrProfile(String variable, String field) {
      String v = env.get(variable);
      if (v != null && !v.isEmpty()) {
        return variable;
      }
      String file = env.get("TEMPORAL_CONFIG_FILE");
      return "temporal.toml profile "
          + profile
          + " ("
          + field
          + (file == null ? "" : ", " + file)
          + ")";
    }
  }
}
