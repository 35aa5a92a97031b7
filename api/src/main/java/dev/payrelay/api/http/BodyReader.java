package dev.payrelay.api.http;

import dev.payrelay.api.ServiceUnavailableException;
import io.javalin.http.Context;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import org.eclipse.jetty.http.BadMessageException;

/**
 * Reads request bodies within their {@link HttpLimits#bodyDeadline deadline}, and webhook bodies at
 * most {@link HttpLimits#webhookReads} at once. Each blocking read also waits at most {@link
 * ApiServer#BODY_READ_IDLE} for its next bytes (Jetty's idle timeout, 408).
 */
final class BodyReader {

  private final HttpLimits limits;
  private final Semaphore webhookReads;
  private final Runnable refused;

  /**
   * @param refused called for each webhook refused because {@link HttpLimits#webhookReads} were
   *     being read
   */
  BodyReader(HttpLimits limits, Runnable refused) {
    this.limits = limits;
    this.webhookReads = new Semaphore(limits.webhookReads());
    this.refused = refused;
  }

  /**
   * A webhook's body: {@link #read} while fewer than {@link HttpLimits#webhookReads} others are
   * being read.
   *
   * @throws ServiceUnavailableException (503, Retry-After) when that many are, without reading
   * @throws BadMessageException 408 when the deadline ran out before the body's end
   */
  byte[] readWebhook(Context ctx, int max) throws IOException {
    if (!webhookReads.tryAcquire()) {
      refused.run();
      throw new ServiceUnavailableException(
          "too many callbacks being received at once; retry later", null);
    }
    try {
      return read(ctx, max);
    } finally {
      webhookReads.release();
    }
  }

  /**
   * The whole request body, which may be at most {@code max} bytes: as {@link #read}, refusing a
   * longer one rather than cutting it (a cut JSON body would be answered as malformed).
   *
   * @throws BadMessageException 413 when the body is longer than {@code max}; 408 as {@link #read}
   */
  byte[] readWhole(Context ctx, int max) throws IOException {
    byte[] body = read(ctx, max + 1);
    if (body.length > max) {
      throw new BadMessageException(413, "body longer than " + max + " bytes");
    }
    return body;
  }

  /**
   * At most {@code max} bytes of the request body, within {@link HttpLimits#bodyDeadline
   * bodyDeadline(max)} of the first read.
   *
   * @throws BadMessageException 408 when the deadline ran out before the body's end
   */
  byte[] read(Context ctx, int max) throws IOException {
    Duration allowed = limits.bodyDeadline(max);
    long deadline = System.nanoTime() + allowed.toNanos();
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    byte[] chunk = new byte[Math.min(8192, max)];
    try (InputStream in = ctx.req().getInputStream()) {
      for (int n;
          body.size() < max
              && (n = in.read(chunk, 0, Math.min(chunk.length, max - body.size()))) >= 0; ) {
        body.write(chunk, 0, n);
        if (System.nanoTime() - deadline > 0) {
          throw new BadMessageException(408, "body not complete within " + allowed);
        }
      }
    }
    return body.toByteArray();
  }
}
