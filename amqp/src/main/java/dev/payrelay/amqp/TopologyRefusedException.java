package dev.payrelay.amqp;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.ShutdownSignalException;
import java.io.IOException;

/**
 * The broker refused one declaration of payrelay's topology, e.g. {@code 406 PRECONDITION_FAILED}
 * for a queue that exists with other arguments (AMQP 0-9-1 {@code queue.declare}: "if the queue
 * exists ... the server MUST raise a channel exception with reply code 406 if the existing queue
 * has different arguments"). Its message names what was declared, the broker's own reply and the
 * fix; retrying cannot help until someone changes the broker or the configuration.
 */
public final class TopologyRefusedException extends IOException {

  private final int replyCode;

  /**
   * @param what what was declared, e.g. {@code queue payrelay.notifications (consumer
   *     notifications)}
   * @param fix what the operator does about it
   * @param cause the client's exception, whose {@link ShutdownSignalException} carries the reply
   */
  public TopologyRefusedException(String what, String fix, IOException cause) {
    super(what + ": the broker refused its declaration (" + reply(cause) + "); " + fix, cause);
    this.replyCode = replyCodeOf(cause);
  }

  /** The AMQP reply code, e.g. 406; 0 when the broker sent none (the connection was lost). */
  public int replyCode() {
    return replyCode;
  }

  /** The broker's reply as its code and text, e.g. {@code 406 PRECONDITION_FAILED - ...}. */
  static String reply(IOException e) {
    AMQP.Channel.Close close = close(e);
    return close == null ? String.valueOf(e) : close.getReplyCode() + " " + close.getReplyText();
  }

  /** Whether {@code e} is the broker closing the channel on a declaration (not a lost link). */
  public static boolean isRefusal(IOException e) {
    return close(e) != null;
  }

  /** The reply code the broker closed the channel with, or 0 (not a channel close). */
  static int replyCodeOf(IOException e) {
    AMQP.Channel.Close close = close(e);
    return close == null ? 0 : close.getReplyCode();
  }

  private static AMQP.Channel.Close close(IOException e) {
    return e.getCause() instanceof ShutdownSignalException signal
            && signal.getReason() instanceof AMQP.Channel.Close close
        ? close
        : null;
  }
}
