package dev.payrelay.activities;

import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.domain.channel.CallbackRequest;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelPaymentRequest;
import dev.payrelay.domain.channel.ChannelQueryResult;
import dev.payrelay.domain.channel.ChannelRegistration;
import dev.payrelay.domain.channel.ChannelReply;
import dev.payrelay.domain.channel.PaymentChannel;
import dev.payrelay.domain.channel.StatementPage;
import dev.payrelay.domain.channel.VerifiedCallback;
import java.time.LocalDate;

/**
 * A channel named {@code sandbox} whose every call fails with {@link
 * UnsupportedOperationException}: a test overrides only the calls its activities make, so a call it
 * did not expect fails loudly.
 */
abstract class StubChannel implements PaymentChannel {

  @Override
  public String name() {
    return "sandbox";
  }

  @Override
  public VerifiedCallback verifyCallback(CallbackRequest request) {
    throw new UnsupportedOperationException("verifyCallback");
  }

  @Override
  public ChannelRegistration register(ChannelPaymentRequest request) {
    throw new UnsupportedOperationException("register");
  }

  @Override
  public ChannelQueryResult query(String paymentId) throws ChannelException {
    throw new UnsupportedOperationException("query");
  }

  @Override
  public ChannelQueryResult close(String paymentId) throws ChannelException {
    throw new UnsupportedOperationException("close");
  }

  @Override
  public StatementPage statement(LocalDate date, String pageToken) throws ChannelException {
    throw new UnsupportedOperationException("statement");
  }

  @Override
  public ChannelReply reply(CallbackOutcome outcome) {
    throw new UnsupportedOperationException("reply");
  }
}
