package dev.payrelay.app.config;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The production rules about what payrelay exposes, next to {@link ProductionChecks}' rules about
 * guessable credentials: which listener serves the admin routes, {@code /metrics} and the codec
 * endpoint, whether Temporal stores payloads in clear, whether URLs are https, and whether a test
 * channel or a simulator runs. Each refusal is one line that starts with the setting's name and
 * says why; none prints a secret.
 */
public final class ExposureChecks {

  private ExposureChecks() {}

  /**
   * The rules of every role that talks to Temporal and the channels ({@code api}, {@code worker}):
   * a payload key, an https public URL, no sandbox channel (and, while it is on, an https URL for
   * it).
   *
   * @return one line per broken rule; empty when none
   */
  public static List<String> refusals(PayrelayConfig config) {
    List<String> refusals = new ArrayList<>();
    if (config.temporal().security().payloadCodec().isEmpty()) {
      refusals.add(
          "PAYRELAY_PAYLOAD_KEY (or _FILE) is not set, so Temporal stores workflow inputs, results"
              + " and signals (payment data, operator names) in clear; set one (openssl rand"
              + " -base64 32) with PAYRELAY_PAYLOAD_KEY_ID");
    }
    notHttps("PAYRELAY_PUBLIC_URL", config.api().publicUrl(), "channels would call back in clear")
        .ifPresent(refusals::add);
    if (config.sandbox().enabled()) {
      refusals.add(
          "PAYRELAY_SANDBOX_ENABLED is not false: the sandbox is a test channel whose simulator"
              + " marks any payment PAID on request; set PAYRELAY_SANDBOX_ENABLED=false");
      notHttps(
              "PAYRELAY_SANDBOX_URL",
              config.sandbox().url(),
              "queries and closes would travel in clear")
          .ifPresent(refusals::add);
    }
    return refusals;
  }

  /**
   * The API's listener rules: the admin routes, {@code /metrics} and the codec endpoint are off a
   * public listener (one not bound to loopback, {@link ChannelUrls#isLoopbackHost}) unless {@code
   * PAYRELAY_ADMIN_PORT} moves them to their own listener; an open codec endpoint ({@code
   * PAYRELAY_CODEC_AUTH=open}) only on a loopback admin listener.
   *
   * @return one line per broken rule; empty when none
   */
  static List<String> listenerRefusals(PayrelayConfig config) {
    List<String> refusals = new ArrayList<>();
    PayrelayConfig.AccessSettings access = config.access();
    String apiHost = config.api().host();
    if (access.adminPort() == null && !ChannelUrls.isLoopbackHost(apiHost)) {
      refusals.add(
          "PAYRELAY_API_HOST="
              + apiHost
              + " is not loopback and PAYRELAY_ADMIN_PORT is unset, so /v1/admin/..., /metrics"
              + " and the codec endpoint are served where channels reach the API; set"
              + " PAYRELAY_ADMIN_PORT");
    }
    if (access.codecOpen()
        && access.adminPort() != null
        && !ChannelUrls.isLoopbackHost(access.adminHost())) {
      refusals.add(
          "PAYRELAY_CODEC_AUTH=open with PAYRELAY_ADMIN_HOST="
              + access.adminHost()
              + " (not loopback) would decrypt payloads for anyone reaching the admin listener;"
              + " bind it to 127.0.0.1 or set PAYRELAY_CODEC_AUTH=key");
    }
    return refusals;
  }

  /**
   * The {@code sandbox} role's rule: production mode runs no simulator, on loopback or not.
   *
   * @return the refusal, naming where the simulator would listen
   */
  static String simulatorRefusal(PayrelayConfig config) {
    return "PAYRELAY_PROFILE: payrelay sandbox would serve the sandbox simulator on "
        + config.sandbox().bindHost()
        + ":"
        + config.sandbox().port()
        + ", which marks any payment PAID on request; production mode runs no simulator"
        + " (PAYRELAY_PROFILE=dev for a test stack)";
  }

  /** A refusal of {@code url} when it is not https, naming {@code setting} and {@code why}. */
  private static Optional<String> notHttps(String setting, URI url, String why) {
    if (ChannelUrls.isHttps(url)) {
      return Optional.empty();
    }
    return Optional.of(setting + " " + url + " is not https: " + why);
  }
}
