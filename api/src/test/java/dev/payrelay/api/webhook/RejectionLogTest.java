package dev.payrelay.api.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** A flood of rejections writes {@link RejectionLog#LINES} lines per window and one summary. */
class RejectionLogTest {

  @Test
  void aFloodOfRejections_writesTheLinesOfOneWindow_thenOneSummaryLine() {
    Logger logger = (Logger) LoggerFactory.getLogger("test.rejections");
    ListAppender<ILoggingEvent> lines = new ListAppender<>();
    lines.start();
    logger.addAppender(lines);
    AtomicLong clock = new AtomicLong();
    RejectionLog log =
        new RejectionLog(
            logger, new LogRateLimiter(RejectionLog.LINES, RejectionLog.WINDOW, clock::get));

    for (int i = 0; i < 5_000; i++) {
      log.rejected(i, "BAD_SIGNATURE", "signature does not match");
    }
    int flood = lines.list.size();
    clock.addAndGet(RejectionLog.WINDOW.toNanos());
    log.rejected(5_000, "BAD_SIGNATURE", "signature does not match");

    assertThat(flood).isEqualTo(RejectionLog.LINES);
    assertThat(lines.list.subList(flood, lines.list.size()))
        .extracting(ILoggingEvent::getFormattedMessage)
        .containsExactly(
            "callback rejections BAD_SIGNATURE: suppressed 4990 line(s) (at most 10 per 10 s)",
            "callback 5000 rejected: BAD_SIGNATURE (signature does not match)");
  }
}
