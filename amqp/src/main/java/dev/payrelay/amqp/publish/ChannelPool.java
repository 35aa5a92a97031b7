package dev.payrelay.amqp.publish;

import com.rabbitmq.client.Channel;
import dev.payrelay.domain.failure.PublishFailure;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fixed number of slots, each holding at most one {@link ConfirmingChannel}. A thread borrows a
 * slot exclusively, so a channel is used by one thread at a time and no more channels than slots
 * are ever open. A slot's channel is opened on first use and replaced once it became unusable.
 */
final class ChannelPool {

  private static final Logger log = LoggerFactory.getLogger(ChannelPool.class);

  /** A borrowed slot; give it back with {@link #giveBack}. */
  static final class Slot {
    // Written by the borrowing thread, read by openChannelCount() from any thread.
    private volatile ConfirmingChannel channel;

    ConfirmingChannel channel() {
      return channel;
    }
  }

  private final List<Slot> allSlots;
  private final BlockingQueue<Slot> slots;
  private final PublisherConnection connection;

  ChannelPool(int size, PublisherConnection connection) {
    this.slots = new ArrayBlockingQueue<>(size);
    this.connection = connection;
    this.allSlots = Stream.generate(Slot::new).limit(size).toList();
    slots.addAll(allSlots);
  }

  /**
   * Borrows a slot with a usable channel, waiting at most {@code timeoutMillis} for a free slot,
   * and (re)opening the connection and channel if needed.
   *
   * @throws PublishException BROKER_UNAVAILABLE when no slot frees up in time, the thread is
   *     interrupted, or the connection or channel cannot be opened
   */
  Slot borrow(int timeoutMillis) throws PublishException {
    Slot slot;
    try {
      slot = slots.poll(timeoutMillis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PublishException(PublishFailure.BROKER_UNAVAILABLE, "interrupted", e);
    }
    if (slot == null) {
      throw new PublishException(
          PublishFailure.BROKER_UNAVAILABLE, "no free channel in " + timeoutMillis + " ms");
    }
    try {
      if (slot.channel == null || !slot.channel.isUsable()) {
        drop(slot);
        slot.channel = openChannel();
      }
      return slot;
    } catch (IOException | TimeoutException | RuntimeException e) {
      giveBack(slot);
      throw new PublishException(
          PublishFailure.BROKER_UNAVAILABLE, "cannot open a channel: " + e.getMessage(), e);
    }
  }

  /** Returns the slot; its channel stays only if still usable, otherwise it is closed. */
  void giveBack(Slot slot) {
    if (slot.channel != null && !slot.channel.isUsable()) {
      drop(slot);
    }
    slots.add(slot);
  }

  /** Open channels, idle or borrowed; never more than the pool size. */
  int openChannelCount() {
    int open = 0;
    for (Slot slot : allSlots) {
      ConfirmingChannel channel = slot.channel;
      if (channel != null && channel.isOpen()) {
        open++;
      }
    }
    return open;
  }

  private ConfirmingChannel openChannel() throws IOException, TimeoutException {
    Channel channel = connection.open().createChannel();
    if (channel == null) {
      throw new IOException("no channel number left (channel_max reached)");
    }
    try {
      return new ConfirmingChannel(channel);
    } catch (IOException | RuntimeException e) {
      try {
        channel.abort();
      } catch (IOException | RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  private void drop(Slot slot) {
    if (slot.channel != null) {
      if (!slot.channel.discard()) {
        connection.abandon("a broken channel did not close in time");
      }
      slot.channel = null;
      log.debug("discarded a publishing channel");
    }
  }
}
