package dev.payrelay.activities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelAccount;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelRegistry;
import dev.payrelay.domain.channel.StatementLine;
import dev.payrelay.domain.channel.StatementPage;
import io.temporal.failure.ApplicationFailure;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A channel's statement over its merchant accounts: each account's pages in turn, resumable from
 * any page token, and one account's only when its statement covers every account.
 */
class ReconciliationChannelsTest {

  private static final LocalDate DAY = LocalDate.of(2026, 11, 30);

  @Test
  void statement_walksEveryAccountsPages_defaultFirst_thenTenantsByMerchantId() {
    ChannelRegistry registry =
        ChannelRegistry.of(
            List.of(
                new ChannelAccount("m_z", Set.of("zeta"), new PagedChannel("m_z", 1, false)),
                ChannelAccount.defaultAccount("m_default", new PagedChannel("m_default", 2, false)),
                new ChannelAccount("m_a", Set.of("acme"), new PagedChannel("m_a", 2, false))));
    ReconciliationChannels channels = new ReconciliationChannels(registry);

    List<String> txns = new ArrayList<>();
    List<String> tokens = new ArrayList<>();
    List<String> owners = new ArrayList<>();
    String token = null;
    do {
      ReconciliationChannels.SourcedPage sourced = channels.statement("stripe", DAY, token);
      StatementPage page = sourced.page();
      page.lines().forEach(l -> txns.add(l.channelTxnId()));
      owners.add(sourced.account());
      token = page.nextPageToken();
      tokens.add(token);
    } while (token != null);

    assertThat(txns).containsExactly("m_default-p0", "m_default-p1", "m_a-p0", "m_a-p1", "m_z-p0");
    assertThat(tokens).containsExactly("@0:1", "@1:", "@1:1", "@2:", null);
    // Each page speaks only for the payments of the account whose statement it is.
    assertThat(owners).containsExactly("m_default", "m_default", "m_a", "m_a", "m_z");
  }

  @Test
  void tokenFromARunBeforeAccounts_isTheFirstAccountsOwnToken() {
    ReconciliationChannels channels =
        new ReconciliationChannels(
            ChannelRegistry.of(
                List.of(
                    ChannelAccount.defaultAccount(
                        "m_default", new PagedChannel("m_default", 3, false)),
                    new ChannelAccount("m_a", Set.of("acme"), new PagedChannel("m_a", 1, false)))));

    StatementPage page = channels.statement("stripe", DAY, "2").page();

    assertThat(page.lines())
        .extracting(StatementLine::channelTxnId)
        .containsExactly("m_default-p2");
    assertThat(page.nextPageToken()).isEqualTo("@1:");
  }

  @Test
  void statementCoveringEveryAccount_isReadOnce_throughTheDefaultAccount() {
    ReconciliationChannels channels =
        new ReconciliationChannels(
            ChannelRegistry.of(
                List.of(
                    ChannelAccount.defaultAccount(
                        "m_default", new PagedChannel("m_default", 1, true)),
                    new ChannelAccount("m_a", Set.of("acme"), new PagedChannel("m_a", 1, true)))));

    ReconciliationChannels.SourcedPage sourced = channels.statement("stripe", DAY, null);
    StatementPage page = sourced.page();

    assertThat(page.lines())
        .extracting(StatementLine::channelTxnId)
        .containsExactly("m_default-p0");
    assertThat(page.nextPageToken()).isNull();
    // The channel's own statement of every account may name any account's payments.
    assertThat(sourced.account()).isNull();
  }

  @Test
  void unknownChannelOrAccount_isANonRetryableFailure() {
    ReconciliationChannels channels =
        new ReconciliationChannels(
            ChannelRegistry.of(
                List.of(
                    ChannelAccount.defaultAccount(
                        "m_default", new PagedChannel("m_default", 1, false)))));

    ApplicationFailure noChannel =
        catchThrowableOfType(
            ApplicationFailure.class, () -> channels.statement("alipay", DAY, null));
    ApplicationFailure noAccount =
        catchThrowableOfType(
            ApplicationFailure.class, () -> channels.forMerchant("stripe", "m_gone"));

    assertThat(noChannel.getType()).isEqualTo("UNKNOWN_CHANNEL");
    assertThat(noChannel.isNonRetryable()).isTrue();
    assertThat(noAccount.getType()).isEqualTo("UNKNOWN_CHANNEL");
    assertThat(noAccount.getMessage()).contains("m_gone");
  }

  /** A channel whose statement has {@code pages} pages of one line each, tokens "1", "2", .... */
  private static final class PagedChannel extends StubChannel {

    private final String merchant;
    private final int pages;
    private final boolean coversEveryAccount;

    PagedChannel(String merchant, int pages, boolean coversEveryAccount) {
      this.merchant = merchant;
      this.pages = pages;
      this.coversEveryAccount = coversEveryAccount;
    }

    @Override
    public String name() {
      return "stripe";
    }

    @Override
    public StatementPage statement(LocalDate date, String pageToken) {
      int page = pageToken == null ? 0 : Integer.parseInt(pageToken);
      StatementLine line =
          new StatementLine(
              merchant + "-p" + page,
              "pay_" + merchant + page,
              "PAYMENT",
              Money.ofMinor(100, "USD"),
              ChannelPaymentStatus.PAID,
              Instant.parse("2026-11-30T10:00:00Z"));
      return new StatementPage(
          date, List.of(line), page + 1 < pages ? String.valueOf(page + 1) : null);
    }

    @Override
    public boolean statementCoversEveryAccount() {
      return coversEveryAccount;
    }
  }
}
