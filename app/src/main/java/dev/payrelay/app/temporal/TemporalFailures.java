package dev.payrelay.app.temporal;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import javax.net.ssl.SSLException;

/** Turns a failed first call to Temporal into a message that names the setting to look at. */
final class TemporalFailures {

  private TemporalFailures() {}

  /**
   * Throws an {@link IllegalStateException} that names the TLS or credential settings when {@code
   * e} is a TLS handshake failure (gRPC reports it as UNAVAILABLE with the {@link SSLException} as
   * cause) or the server's UNAUTHENTICATED; returns otherwise.
   */
  static void throwIfTlsOrAuth(StatusRuntimeException e, String target) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SSLException ssl) {
        throw new IllegalStateException(
            "TLS with the Temporal frontend at "
                + target
                + " failed: "
                + ssl.getMessage()
                + " (check PAYRELAY_TEMPORAL_TLS_CA: the CA that signed the server's certificate;"
                + " PAYRELAY_TEMPORAL_TLS_SERVER_NAME; and for mTLS PAYRELAY_TEMPORAL_TLS_CERT and"
                + " PAYRELAY_TEMPORAL_TLS_KEY)",
            e);
      }
    }
    if (e.getStatus().getCode() == Status.Code.UNAUTHENTICATED) {
      throw new IllegalStateException(
          "the Temporal frontend at "
              + target
              + " refused payrelay's credentials: "
              + e.getStatus().getDescription()
              + " (check PAYRELAY_TEMPORAL_API_KEY or PAYRELAY_TEMPORAL_API_KEY_FILE, and the"
              + " client certificate PAYRELAY_TEMPORAL_TLS_CERT)",
          e);
    }
  }
}
