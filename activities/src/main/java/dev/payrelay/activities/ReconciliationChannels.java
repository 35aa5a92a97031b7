package dev.payrelay.activities;

import dev.payrelay.domain.channel.ChannelAccount;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelRegistry;
import dev.payrelay.domain.channel.PaymentChannel;
import dev.payrelay.domain.channel.StatementPage;
import dev.payrelay.workflows.activities.ReconciliationFailure;
import io.temporal.failure.ApplicationFailure;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The channels' merchant accounts as reconciliation reads them, and the failure types it reports
 * for them. A channel's statement is the statements of its accounts one after another ({@link
 * ChannelRegistry#statementAccounts}): its page tokens are {@code @<account index>:<the account's
 * own token>}, so a run resumes inside the right account.
 */
final class ReconciliationChannels {

  /** A token of ours; anything else is the first account's own token (runs from before). */
  private static final Pattern TOKEN = Pattern.compile("@(\\d{1,4}):(.*)", Pattern.DOTALL);

  private final ChannelRegistry accounts;

  ReconciliationChannels(ChannelRegistry accounts) {
    this.accounts = accounts;
  }

  /** Fails with a non-retryable {@code UNKNOWN_CHANNEL} unless channel {@code name} is set up. */
  void requireChannel(String name) {
    if (accounts.find(name).isEmpty()) {
      throw ApplicationFailure.newNonRetryableFailure(
          "no channel " + name, ReconciliationFailure.UNKNOWN_CHANNEL.name());
    }
  }

  /**
   * The time zone the channel's statement days run in ({@link PaymentChannel#statementZone()} of
   * its default account); a non-retryable {@code UNKNOWN_CHANNEL} when it is not set up.
   */
  ZoneId zone(String channel) {
    requireChannel(channel);
    return accounts.find(channel).orElseThrow().statementZone();
  }

  /**
   * The adapter of the account that holds merchant {@code merchantId}'s payments at {@code
   * channel}; a non-retryable {@code UNKNOWN_CHANNEL} when the channel or account is not set up.
   */
  PaymentChannel forMerchant(String channel, String merchantId) {
    return accounts
        .forMerchant(channel, merchantId)
        .map(ChannelAccount::adapter)
        .orElseThrow(
            () ->
                ApplicationFailure.newNonRetryableFailure(
                    "no account " + merchantId + " at channel " + channel,
                    ReconciliationFailure.UNKNOWN_CHANNEL.name()));
  }

  /**
   * A statement page and whose it is.
   *
   * @param page the page, its next token already wrapped
   * @param account the merchant id of the account whose statement it is, whose payments alone its
   *     lines may speak for; null when that statement is the channel's own for every account
   *     ({@link PaymentChannel#statementCoversEveryAccount()})
   */
  record SourcedPage(StatementPage page, String account) {}

  /**
   * One page of the channel's statement for {@code date}: the current account's page, its token
   * wrapped, or the next account's first page once an account's statement ends; channel errors as
   * {@link ActivityFailures#channel}.
   *
   * @param pageToken null for the first page, else the previous page's {@link
   *     StatementPage#nextPageToken()}
   */
  SourcedPage statement(String channel, LocalDate date, String pageToken) {
    List<ChannelAccount> sources = accounts.statementAccounts(channel);
    if (sources.isEmpty()) {
      requireChannel(channel);
    }
    int index = 0;
    String inner = pageToken;
    Matcher ours = pageToken == null ? null : TOKEN.matcher(pageToken);
    if (ours != null && ours.matches()) {
      index = Integer.parseInt(ours.group(1));
      inner = ours.group(2).isEmpty() ? null : ours.group(2);
    }
    if (index >= sources.size()) {
      throw ApplicationFailure.newNonRetryableFailure(
          "page token " + pageToken + " names account " + index + " of " + sources.size(),
          ReconciliationFailure.INVALID_REQUEST.name());
    }
    ChannelAccount source = sources.get(index);
    StatementPage page;
    try {
      page = source.adapter().statement(date, inner);
    } catch (ChannelException e) {
      throw ActivityFailures.channel(e);
    }
    String next =
        page.nextPageToken() != null
            ? "@" + index + ":" + page.nextPageToken()
            : index + 1 < sources.size() ? "@" + (index + 1) + ":" : null;
    return new SourcedPage(
        new StatementPage(page.date(), page.lines(), next),
        source.adapter().statementCoversEveryAccount() ? null : source.merchantId());
  }

  /** An ISO-8601 day, or a non-retryable {@code INVALID_REQUEST}. */
  static LocalDate day(String date) {
    try {
      return LocalDate.parse(date == null ? "" : date);
    } catch (DateTimeParseException e) {
      throw ApplicationFailure.newNonRetryableFailureWithCause(
          "not an ISO-8601 date: " + date, ReconciliationFailure.INVALID_REQUEST.name(), e);
    }
  }
}
