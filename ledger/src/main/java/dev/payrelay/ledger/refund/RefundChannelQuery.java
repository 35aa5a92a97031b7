package dev.payrelay.ledger.refund;

import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelRefundResult;

/**
 * Asks a refund's channel what became of it, by our refund number ({@link
 * dev.payrelay.domain.channel.PaymentChannel#queryRefund}); the ledger's operator actions call it
 * before they let an operator's word settle a refund ({@link RefundResolutions#markFailed}).
 */
@FunctionalInterface
public interface RefundChannelQuery {

  /**
   * @param refund the refund as the ledger holds it
   * @return the channel's answer; {@code NOT_FOUND} only when the channel says it holds none
   * @throws ChannelException when the channel cannot be reached or answers with an error: the
   *     refund's state at the channel stays unknown
   */
  ChannelRefundResult ask(RefundRow refund) throws ChannelException;
}
