package dev.payrelay.app.config;

import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.temporal.serviceclient.SimpleSslContextBuilder;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import java.util.Map;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * TLS to the Temporal frontend, with a client certificate for mTLS when one is set, the way
 * Temporal Cloud and a self-hosted server with {@code global.tls} take it. Built once at start, so
 * a bad file fails then, naming its setting.
 *
 * <ul>
 *   <li>{@code PAYRELAY_TEMPORAL_TLS}: {@code true}/{@code false}; default false, but any of the
 *       settings below or an API key turns it on ({@code false} with a certificate is refused)
 *   <li>{@code PAYRELAY_TEMPORAL_TLS_CA}: PEM file of the CA(s) that signed the server's
 *       certificate; default the JVM's trust store
 *   <li>{@code PAYRELAY_TEMPORAL_TLS_CERT} and {@code PAYRELAY_TEMPORAL_TLS_KEY}: PEM certificate
 *       chain and its PKCS#8 PEM private key ({@code BEGIN PRIVATE KEY}; convert others with {@code
 *       openssl pkcs8 -topk8 -nocrypt}) presented as the client's identity; both or neither
 *   <li>{@code PAYRELAY_TEMPORAL_TLS_SERVER_NAME}: the name sent as SNI and {@code :authority} and
 *       checked against the server's certificate, when it differs from the address's host
 * </ul>
 *
 * @param sslContext the client's TLS context (the SDK's {@link SimpleSslContextBuilder})
 * @param serverName the SNI/authority override, or null for the address's host
 * @param description what is configured, file paths only, for logs and messages
 */
public record TemporalTls(SslContext sslContext, String serverName, String description) {

  /**
   * The TLS settings, or null when TLS is off.
   *
   * @param apiKeySet whether an API key is configured (it implies TLS unless TLS is set to false)
   * @throws IllegalArgumentException naming the setting that is malformed, contradicts another, or
   *     names a file that cannot be read or parsed
   */
  static TemporalTls fromEnv(Map<String, String> env, boolean apiKeySet) {
    String flag = TemporalSecurity.text(env, "PAYRELAY_TEMPORAL_TLS");
    if (flag != null && !flag.equalsIgnoreCase("true") && !flag.equalsIgnoreCase("false")) {
      throw new IllegalArgumentException(
          "PAYRELAY_TEMPORAL_TLS must be true or false, got: " + flag);
    }
    Path ca = TemporalSecurity.file(env, "PAYRELAY_TEMPORAL_TLS_CA");
    Path cert = TemporalSecurity.file(env, "PAYRELAY_TEMPORAL_TLS_CERT");
    Path key = TemporalSecurity.file(env, "PAYRELAY_TEMPORAL_TLS_KEY");
    String serverName = TemporalSecurity.text(env, "PAYRELAY_TEMPORAL_TLS_SERVER_NAME");
    if ((cert == null) != (key == null)) {
      throw new IllegalArgumentException(
          "PAYRELAY_TEMPORAL_TLS_CERT and PAYRELAY_TEMPORAL_TLS_KEY go together; "
              + (cert == null ? "PAYRELAY_TEMPORAL_TLS_CERT" : "PAYRELAY_TEMPORAL_TLS_KEY")
              + " is missing");
    }
    boolean details = ca != null || cert != null || serverName != null;
    if ("false".equalsIgnoreCase(flag)) {
      if (details) {
        throw new IllegalArgumentException(
            "PAYRELAY_TEMPORAL_TLS=false contradicts the PAYRELAY_TEMPORAL_TLS_* files/name set");
      }
      return null;
    }
    if (!"true".equalsIgnoreCase(flag) && !details && !apiKeySet) {
      return null;
    }
    SimpleSslContextBuilder builder =
        cert == null
            ? SimpleSslContextBuilder.noKeyOrCertChain()
            : SimpleSslContextBuilder.forPKCS8(
                new ByteArrayInputStream(TemporalSecurity.read("PAYRELAY_TEMPORAL_TLS_CERT", cert)),
                new ByteArrayInputStream(TemporalSecurity.read("PAYRELAY_TEMPORAL_TLS_KEY", key)));
    if (ca != null) {
      builder.setTrustManager(trustManager(ca));
    }
    try {
      return new TemporalTls(
          builder.build(),
          serverName,
          "ca="
              + (ca == null ? "JVM trust store" : ca)
              + ", client cert="
              + (cert == null ? "none" : cert)
              + ", server name="
              + (serverName == null ? "from address" : serverName));
    } catch (SSLException | IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "PAYRELAY_TEMPORAL_TLS_CERT/PAYRELAY_TEMPORAL_TLS_KEY: "
              + cert
              + " and "
              + key
              + " are not a PEM certificate chain and its PKCS#8 PEM private key ("
              + e.getClass().getSimpleName()
              + ")",
          e);
    }
  }

  private static TrustManager trustManager(Path ca) {
    byte[] pem = TemporalSecurity.read("PAYRELAY_TEMPORAL_TLS_CA", ca);
    try {
      Collection<? extends Certificate> certs =
          CertificateFactory.getInstance("X.509")
              .generateCertificates(new ByteArrayInputStream(pem));
      if (certs.isEmpty()) {
        throw new IllegalArgumentException("PAYRELAY_TEMPORAL_TLS_CA: no PEM certificate in " + ca);
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
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw new IllegalArgumentException(
          "PAYRELAY_TEMPORAL_TLS_CA: "
              + ca
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
