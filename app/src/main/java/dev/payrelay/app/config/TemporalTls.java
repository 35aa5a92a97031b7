package dev.payrelay.app.config;

import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.temporal.serviceclient.SimpleSslContextBuilder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * TLS to the Temporal frontend, with a client certificate for mTLS when one is set, the way
 * Temporal Cloud and a self-hosted server with {@code global.tls} take it. Built once at start from
 * {@link Inputs} ({@link TemporalClientConfig}: {@code PAYRELAY_TEMPORAL_TLS*} over Temporal's own
 * {@code TEMPORAL_TLS*} and {@code temporal.toml} profile), so a bad file fails then, naming where
 * it was set.
 *
 * @param sslContext the client's TLS context (the SDK's {@link SimpleSslContextBuilder})
 * @param serverName the SNI/authority override, or null for the address's host
 * @param description what is configured, file paths only, for logs and messages
 */
public record TemporalTls(SslContext sslContext, String serverName, String description) {

  /**
   * A PEM input, from a file or given inline.
   *
   * @param setting where it was set, named in errors, e.g. {@code PAYRELAY_TEMPORAL_TLS_CA}
   * @param path the file, or null when {@code data} holds it
   * @param data the PEM bytes, when given inline ({@code TEMPORAL_TLS_*_DATA})
   */
  public record Pem(String setting, Path path, byte[] data) {

    /**
     * The PEM bytes.
     *
     * @throws IllegalArgumentException naming the setting and the path when it cannot be read
     */
    byte[] read() {
      if (path == null) {
        return data;
      }
      try {
        return Files.readAllBytes(path);
      } catch (IOException e) {
        throw new IllegalArgumentException(
            setting + ": cannot read " + path + " (" + e.getClass().getSimpleName() + ")", e);
      }
    }

    /** The file, or {@code inline} for inline data. */
    String where() {
      return path == null ? "inline" : path.toString();
    }
  }

  /**
   * What TLS is asked for.
   *
   * @param enabled true or false when set; null when unset (on when any detail or an API key is)
   * @param enabledSetting where {@code enabled} was set, named in refusals
   * @param ca the CA(s) that signed the server's certificate; null for the JVM's trust store
   * @param cert the client certificate chain for mTLS, or null
   * @param key the client certificate's PKCS#8 private key, or null
   * @param serverName the SNI/authority override, or null
   * @param disableHostVerification trust any server certificate when no CA is given (Temporal's
   *     {@code TEMPORAL_TLS_DISABLE_HOST_VERIFICATION}; for tests only)
   */
  public record Inputs(
      Boolean enabled,
      String enabledSetting,
      Pem ca,
      Pem cert,
      Pem key,
      String serverName,
      boolean disableHostVerification) {}

  /**
   * The TLS settings, or null when TLS is off.
   *
   * @param apiKeySet whether an API key is configured (it implies TLS unless TLS is set to false)
   * @throws IllegalArgumentException naming the setting that is malformed, contradicts another, or
   *     names a file that cannot be read or parsed
   */
  static TemporalTls from(Inputs in, boolean apiKeySet) {
    if ((in.cert() == null) != (in.key() == null)) {
      boolean keyMissing = in.key() == null;
      throw new IllegalArgumentException(
          (keyMissing ? in.cert() : in.key()).setting()
              + " needs its "
              + (keyMissing ? "key" : "certificate")
              + ": "
              + (keyMissing ? "PAYRELAY_TEMPORAL_TLS_KEY" : "PAYRELAY_TEMPORAL_TLS_CERT")
              + " is missing (or "
              + (keyMissing ? "TEMPORAL_TLS_CLIENT_KEY_PATH" : "TEMPORAL_TLS_CLIENT_CERT_PATH")
              + ")");
    }
    List<String> details = details(in);
    if (Boolean.FALSE.equals(in.enabled())) {
      if (!details.isEmpty()) {
        throw new IllegalArgumentException(
            in.enabledSetting() + "=false contradicts " + String.join(", ", details) + " set");
      }
      return null;
    }
    if (!Boolean.TRUE.equals(in.enabled()) && details.isEmpty() && !apiKeySet) {
      return null;
    }
    return new TemporalTls(sslContext(in), in.serverName(), describe(in));
  }

  private static List<String> details(Inputs in) {
    List<String> set = new ArrayList<>();
    for (Pem pem : new Pem[] {in.ca(), in.cert()}) {
      if (pem != null) {
        set.add(pem.setting());
      }
    }
    if (in.serverName() != null) {
      set.add("a TLS server name");
    }
    return set;
  }

  private static SslContext sslContext(Inputs in) {
    SimpleSslContextBuilder builder =
        in.cert() == null
            ? SimpleSslContextBuilder.noKeyOrCertChain()
            : SimpleSslContextBuilder.forPKCS8(
                new ByteArrayInputStream(in.cert().read()),
                new ByteArrayInputStream(in.key().read()));
    if (in.ca() != null) {
      builder.setTrustManager(trustManager(in.ca()));
    } else if (in.disableHostVerification()) {
      builder.setUseInsecureTrustManager(true);
    }
    try {
      return builder.build();
    } catch (SSLException | IllegalArgumentException e) {
      throw new IllegalArgumentException(
          in.cert().setting()
              + "/"
              + in.key().setting()
              + ": "
              + in.cert().where()
              + " and "
              + in.key().where()
              + " are not a PEM certificate chain and its PKCS#8 PEM private key ("
              + e.getClass().getSimpleName()
              + ")",
          e);
    }
  }

  private static String describe(Inputs in) {
    return "ca="
        + (in.ca() == null
            ? (in.disableHostVerification() ? "any (host verification off)" : "JVM trust store")
            : in.ca().where())
        + ", client cert="
        + (in.cert() == null ? "none" : in.cert().where())
        + ", server name="
        + (in.serverName() == null ? "from address" : in.serverName());
  }

  private static TrustManager trustManager(Pem ca) {
    byte[] pem = ca.read();
    try {
      Collection<? extends Certificate> certs =
          CertificateFactory.getInstance("X.509")
              .generateCertificates(new ByteArrayInputStream(pem));
      if (certs.isEmpty()) {
        throw new IllegalArgumentException(ca.setting() + ": no PEM certificate in " + ca.where());
      }
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      int i = 0;
      for (Certificate c : certs) {
        store.setCertificateEntry("ca-" + i++, c);
      }
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(store);
      return factory.getTrustManagers()[0];
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalArgumentException(
          ca.setting()
              + ": "
              + ca.where()
              + " is not a PEM certificate file ("
              + e.getMessage()
              + ")",
          e);
    }
  }

  @Override
  public String toString() {
    return "TLS[" + description + "]";
  }
}
