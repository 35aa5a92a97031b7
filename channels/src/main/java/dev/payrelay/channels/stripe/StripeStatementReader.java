package dev.payrelay.channels.stripe;

import com.stripe.StripeClient;
import com.stripe.exception.StripeException;
import com.stripe.model.BalanceTransaction;
import com.stripe.model.BalanceTransactionSource;
import com.stripe.model.Charge;
import com.stripe.model.PaymentIntent;
import com.stripe.model.Refund;
import com.stripe.model.StripeCollection;
import com.stripe.param.BalanceTransactionListParams;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.StatementLine;
import dev.payrelay.domain.channel.StatementPage;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Reads a day's statement from Stripe's balance transactions ({@code GET /v1/balance_transactions},
 * https://docs.stripe.com/api/balance_transactions/list): {@code created[gte]}/{@code created[lt]}
 * bound the day in the configured zone, 100 per page, the next page starts after the last id
 * ({@code starting_after}) while {@code has_more}. {@code expand[]=data.source.payment_intent}
 * brings each line's Charge or Refund and its PaymentIntent, whose {@code metadata.payment_id} is
 * our payment id.
 *
 * <p>Only payment and refund transactions become lines (types {@code charge}, {@code payment},
 * {@code refund}, {@code payment_refund}); fees, payouts and adjustments are not payments. Amounts
 * are the Charge's or Refund's own, positive, in the currency the buyer paid in; the balance
 * transaction's own amount is in the account's settlement currency and negative for refunds.
 */
final class StripeStatementReader {

  static final long PAGE_SIZE = 100;
  private static final Set<String> PAYMENT_TYPES = Set.of("charge", "payment");
  private static final Set<String> REFUND_TYPES = Set.of("refund", "payment_refund");

  private final StripeClient client;
  private final ZoneId zone;

  StripeStatementReader(StripeClient client, ZoneId zone) {
    this.client = client;
    this.zone = zone;
  }

  StatementPage page(LocalDate date, String pageToken) throws ChannelException {
    BalanceTransactionListParams params =
        BalanceTransactionListParams.builder()
            .setCreated(
                BalanceTransactionListParams.Created.builder()
                    .setGte(date.atStartOfDay(zone).toEpochSecond())
                    .setLt(date.plusDays(1).atStartOfDay(zone).toEpochSecond())
                    .build())
            .setLimit(PAGE_SIZE)
            .setStartingAfter(pageToken)
            .addExpand("data.source.payment_intent")
            .build();
    StripeCollection<BalanceTransaction> page;
    try {
      page = client.v1().balanceTransactions().list(params);
    } catch (StripeException e) {
      throw StripeApi.failure("list balance transactions of " + date, e);
    }
    List<StatementLine> lines = new ArrayList<>();
    for (BalanceTransaction txn : page.getData()) {
      if (PAYMENT_TYPES.contains(txn.getType()) || REFUND_TYPES.contains(txn.getType())) {
        lines.add(line(txn));
      }
    }
    List<BalanceTransaction> data = page.getData();
    boolean more = Boolean.TRUE.equals(page.getHasMore()) && !data.isEmpty();
    return new StatementPage(date, lines, more ? data.get(data.size() - 1).getId() : null);
  }

  private static StatementLine line(BalanceTransaction txn) throws ChannelException {
    BalanceTransactionSource source = txn.getSourceObject();
    Instant at = Instant.ofEpochSecond(txn.getCreated());
    try {
      if (source instanceof Charge charge && PAYMENT_TYPES.contains(txn.getType())) {
        return new StatementLine(
            charge.getPaymentIntent(),
            paymentId(charge.getPaymentIntentObject()),
            "PAYMENT",
            StripeAmounts.toMoney(charge.getAmount(), charge.getCurrency()),
            ChannelPaymentStatus.PAID,
            at);
      }
      if (source instanceof Refund refund && REFUND_TYPES.contains(txn.getType())) {
        return new StatementLine(
            refund.getId(),
            paymentId(refund.getPaymentIntentObject()),
            "REFUND",
            StripeAmounts.toMoney(refund.getAmount(), refund.getCurrency()),
            ChannelPaymentStatus.REFUNDED,
            at,
            refund.getMetadata() == null
                ? null
                : refund.getMetadata().get(StripeCallbackParser.REFUND_NO_KEY));
      }
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw new ChannelException(txn.getId() + ": " + e.getMessage(), false, e);
    }
    throw new ChannelException(
        txn.getId() + " of type " + txn.getType() + " has no expanded charge or refund",
        false,
        null);
  }

  private static String paymentId(PaymentIntent intent) {
    return intent == null || intent.getMetadata() == null
        ? null
        : intent.getMetadata().get(StripeCallbackParser.PAYMENT_ID_KEY);
  }
}
