package dev.payrelay.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Key;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * A throw-away certificate authority for TLS tests, made with the JDK's own {@code keytool}: a CA,
 * and certificates it signs for a server or a client, each written as PEM files (certificate and
 * PKCS#8 private key) as operators hand them to payrelay.
 */
final class TestPki {

  private static final String PASS = "test-pass";
  private final Path dir;
  private final String name;

  /** A new CA named {@code name}, its files in {@code dir}. */
  TestPki(Path dir, String name) throws Exception {
    this.dir = dir;
    this.name = name;
    keytool(
        "-genkeypair",
        "-keystore",
        store(name).toString(),
        "-alias",
        name,
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-dname",
        "CN=" + name,
        "-ext",
        "bc:c",
        "-validity",
        "2");
    keytool(
        "-exportcert",
        "-rfc",
        "-keystore",
        store(name).toString(),
        "-alias",
        name,
        "-file",
        caPem().toString());
  }

  /** The CA's certificate, PEM. */
  Path caPem() {
    return dir.resolve(name + "-ca.pem");
  }

  /**
   * A certificate for {@code cn} signed by this CA, with {@code san} (e.g. {@code
   * dns:temporal.test}, or null for none) and extended key usage {@code eku} ({@code serverAuth} or
   * {@code clientAuth}).
   *
   * @return the certificate PEM and the PKCS#8 PEM private key
   */
  Issued issue(String cn, String san, String eku) throws Exception {
    Path store = store(cn);
    keytool(
        "-genkeypair",
        "-keystore",
        store.toString(),
        "-alias",
        cn,
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-dname",
        "CN=" + cn,
        "-validity",
        "2");
    Path csr = dir.resolve(cn + ".csr");
    keytool("-certreq", "-keystore", store.toString(), "-alias", cn, "-file", csr.toString());
    Path cert = dir.resolve(cn + "-cert.pem");
    List<String> gencert =
        new ArrayList<>(
            List.of(
                "-gencert",
                "-rfc",
                "-keystore",
                store(name).toString(),
                "-alias",
                name,
                "-infile",
                csr.toString(),
                "-outfile",
                cert.toString(),
                "-validity",
                "2",
                "-ext",
                "EKU=" + eku));
    if (san != null) {
      gencert.addAll(List.of("-ext", "SAN=" + san));
    }
    keytool(gencert.toArray(String[]::new));
    Path key = dir.resolve(cn + "-key.pem");
    Files.writeString(key, pkcs8Pem(store, cn));
    return new Issued(cert, key);
  }

  record Issued(Path cert, Path key) {}

  private Path store(String alias) {
    return dir.resolve(alias + ".p12");
  }

  private static String pkcs8Pem(Path store, String alias) throws Exception {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      ks.load(in, PASS.toCharArray());
    }
    Key key = ks.getKey(alias, PASS.toCharArray());
    return "-----BEGIN PRIVATE KEY-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
            .encodeToString(key.getEncoded())
        + "\n-----END PRIVATE KEY-----\n";
  }

  private static void keytool(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    command.addAll(List.of("-storetype", "PKCS12", "-storepass", PASS, "-noprompt"));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IllegalStateException("keytool " + args[0] + " failed: " + out);
    }
  }
}
