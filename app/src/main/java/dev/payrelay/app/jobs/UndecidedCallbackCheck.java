package dev.payrelay.app.jobs;

import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.channel.CallbackRequest;
import dev.payrelay.domain.channel.ChannelRegistry;
import dev.payrelay.ledger.checks.Ages;
import dev.payrelay.ledger.checks.CheckScope;
import dev.payrelay.ledger.checks.FindingKind;
import dev.payrelay.ledger.checks.PaymentFinding;
import dev.payrelay.ledger.inbox.StoredCallback;
import dev.payrelay.ledger.inbox.WebhookInboxStore;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The inbox part of {@code payrelay check}: callbacks stored and never decided ({@link
 * WebhookInboxStore#undecided}), received longer ago than {@link CheckScope#olderThan()} and within
 * {@link CheckScope#within()}, each read with its channel's adapter as the webhook reads it to
 * choose the verifying account ({@code PaymentChannel.claimedPaymentId}). A row whose payment has
 * been decided since (PAID, CLOSED, EXPIRED: the channel's retry, or the payment's channel watch,
 * settled it) is history, not a finding; the rest are {@link FindingKind#CALLBACK_NOT_DECIDED}. The
 * id is read unverified: it only chooses whether a person looks at the row, never what the ledger
 * does.
 */
public final class UndecidedCallbackCheck {

  /** Rows read per query: each carries its raw body (at most the webhook's body limit). */
  static final int PAGE = 100;

  private final WebhookInboxStore inbox;
  private final PaymentStore payments;
  private final ChannelRegistry channels;

  public UndecidedCallbackCheck(
      WebhookInboxStore inbox, PaymentStore payments, ChannelRegistry channels) {
    this.inbox = inbox;
    this.payments = payments;
    this.channels = channels;
  }

  /**
   * The findings, oldest callback first, at most {@link CheckScope#limit()}: rows are read a page
   * of {@link #PAGE} at a time until that many findings are made or the window has no more, so rows
   * whose payment was decided since never crowd out the ones that count.
   */
  public List<PaymentFinding> run(CheckScope scope) {
    List<PaymentFinding> found = new ArrayList<>();
    StoredCallback after = null;
    while (found.size() < scope.limit()) {
      List<StoredCallback> page = inbox.undecided(scope.olderThan(), scope.within(), after, PAGE);
      for (StoredCallback row : page) {
        if (found.size() < scope.limit()) {
          finding(row).ifPresent(found::add);
        }
      }
      if (page.size() < PAGE) {
        break;
      }
      after = page.getLast();
    }
    return found;
  }

  /** The finding about {@code row}, or empty when its payment has been decided since. */
  private Optional<PaymentFinding> finding(StoredCallback row) {
    Optional<String> named = claimedPaymentId(row);
    Optional<PaymentRow> payment = named.flatMap(payments::find);
    if (payment.isPresent() && payment.get().status() != PaymentStatus.PENDING) {
      return Optional.empty();
    }
    return Optional.of(
        new PaymentFinding(
            named.orElse(null),
            FindingKind.CALLBACK_NOT_DECIDED,
            "webhook_inbox row "
                + row.inboxId()
                + " at "
                + row.request().channel()
                + (row.request().remoteAddr() == null ? "" : " from " + row.request().remoteAddr())
                + ", received "
                + Ages.of(row.ageSeconds())
                + " ago, was never decided (the process stopped or lost the database"
                + " mid-request; the channel got no answer); "
                + named
                    .map(id -> payment.isPresent() ? id + " is still PENDING" : "no payment " + id)
                    .orElse("the payment it names cannot be read from its stored bytes"),
            null));
  }

  /** The payment the stored bytes name, as the webhook reads it; empty when none can be read. */
  private Optional<String> claimedPaymentId(StoredCallback row) {
    try {
      return channels
          .find(row.request().channel())
          .flatMap(
              c ->
                  c.claimedPaymentId(
                      new CallbackRequest(
                          row.request().headers(), row.request().rawBody(), row.receivedAt())));
    } catch (RuntimeException malformed) {
      return Optional.empty();
    }
  }
}
