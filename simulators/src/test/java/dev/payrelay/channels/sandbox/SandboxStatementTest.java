package dev.payrelay.channels.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.payrelay.channels.MutableClock;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelPaymentRequest;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.StatementLine;
import dev.payrelay.domain.channel.StatementPage;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The sandbox's daily statement, read page by page through SandboxChannel.statement. */
class SandboxStatementTest {

  private static final LocalDate DAY = LocalDate.parse("2026-03-11");
  private static final Instant DAY_START = DAY.atStartOfDay(ZoneOffset.UTC).toInstant();

  private final MutableClock clock = new MutableClock(DAY_START.minusSeconds(60));
  private SandboxFixture sandbox;
  private SandboxChannel channel;

  @BeforeEach
  void start() throws Exception {
    sandbox = new SandboxFixture(clock);
    channel = sandbox.channel;
  }

  @AfterEach
  void stop() {
    sandbox.close();
  }

  @Test
  void twoHundredFiftyPaymentsOnADay_comeInPagesOf100_100_50_eachOnce_inPaidTimeOrder()
      throws Exception {
    payOne("before-midnight");
    clock.set(DAY_START);
    Set<String> paidThatDay = new HashSet<>();
    for (int i = 0; i < 250; i++) {
      // Two payments per second, so ties are broken by the transaction id.
      clock.advance(Duration.ofMillis(i % 2 == 0 ? 1000 : 0));
      paidThatDay.add(payOne("p-" + i));
    }
    clock.set(DAY_START.plus(Duration.ofDays(1)));
    payOne("next-day");

    List<StatementPage> pages = allPages(DAY);

    assertThat(pages).extracting(page -> page.lines().size()).containsExactly(100, 100, 50);
    assertThat(pages.getLast().nextPageToken()).isNull();
    List<StatementLine> lines = pages.stream().flatMap(page -> page.lines().stream()).toList();
    assertThat(lines).extracting(StatementLine::paymentId).doesNotHaveDuplicates();
    assertThat(new HashSet<>(lines.stream().map(StatementLine::paymentId).toList()))
        .isEqualTo(paidThatDay);
    assertThat(lines)
        .isSortedAccordingTo(
            Comparator.comparing(StatementLine::occurredAt)
                .thenComparing(StatementLine::channelTxnId));
    assertThat(lines)
        .contains(
            new StatementLine(
                sandbox.simulator.payment("p-0").orElseThrow().channelTxnId(),
                "p-0",
                "PAYMENT",
                Money.ofMinor(1050, "USD"),
                ChannelPaymentStatus.PAID,
                DAY_START.plusSeconds(1)));
  }

  @Test
  void injectedLines_appearOnTheirDayOnly_inOccurredAtOrder() throws Exception {
    clock.set(DAY_START.plusSeconds(3_600));
    String txn = sandbox.simulator.payment(payOne("p-ours")).orElseThrow().channelTxnId();
    StatementLine unknownTxn = line("sbx_stranger", null, "PAYMENT", 700, 60);
    StatementLine otherAmount = line("sbx_other_amount", "p-elsewhere", "PAYMENT", 999, 7_200);
    StatementLine refund = line("rfd_1", "p-ours", "REFUND", 1050, 10_800);
    sandbox.simulator.addStatementLine(DAY, refund);
    sandbox.simulator.addStatementLine(DAY, unknownTxn);
    sandbox.simulator.addStatementLine(DAY, otherAmount);
    sandbox.simulator.addStatementLine(
        DAY.plusDays(1), line("sbx_tomorrow", null, "PAYMENT", 1, 0));

    StatementPage page = channel.statement(DAY, null);

    assertThat(page.lines())
        .extracting(StatementLine::channelTxnId)
        .containsExactly("sbx_stranger", txn, "sbx_other_amount", "rfd_1");
    assertThat(page.lines()).contains(unknownTxn, otherAmount, refund);
    assertThat(page.nextPageToken()).isNull();
  }

  @Test
  void aDayWithoutTransactions_isOneEmptyPage() throws Exception {
    StatementPage page = channel.statement(DAY.minusDays(30), null);

    assertThat(page.lines()).isEmpty();
    assertThat(page.nextPageToken()).isNull();
    assertThat(page.date()).isEqualTo(DAY.minusDays(30));
  }

  @Test
  void malformedLine_isANonRetryableChannelException_namingTheLine() {
    String good =
        """
        {"channel_txn_id":"sbx_1","payment_id":"p-1","kind":"PAYMENT","amount":"10.50",\
        "currency":"USD","status":"PAID","occurred_at":"2026-03-11T10:00:00Z"}""";
    String tooManyDecimals = good.replace("sbx_1", "sbx_2").replace("10.50", "10.505");
    sandbox.receiver.answerNext(200, "application/x-ndjson", good + "\n" + tooManyDecimals + "\n");
    SandboxChannel fake = sandbox.channelAt(sandbox.receiver.baseUrl(), Duration.ofSeconds(2));

    ChannelException e =
        catchThrowableOfType(ChannelException.class, () -> fake.statement(DAY, null));

    assertThat(e).isNotNull().hasMessageContaining("line 2").hasMessageContaining("10.505");
    assertThat(e.retryable()).isFalse();
  }

  @Test
  void lineOfUnknownKindOrNotJson_isRejected() {
    sandbox.receiver.answerNext(200, "application/x-ndjson", "{oops\n");
    sandbox.receiver.answerNext(
        200,
        "application/x-ndjson",
        """
        {"channel_txn_id":"c_1","kind":"CHARGEBACK","amount":"1.00","currency":"USD",\
        "status":"PAID","occurred_at":"2026-03-11T10:00:00Z"}
        """);
    SandboxChannel fake = sandbox.channelAt(sandbox.receiver.baseUrl(), Duration.ofSeconds(2));

    ChannelException notJson =
        catchThrowableOfType(ChannelException.class, () -> fake.statement(DAY, null));
    ChannelException unknownKind =
        catchThrowableOfType(ChannelException.class, () -> fake.statement(DAY, null));

    assertThat(notJson).isNotNull().hasMessageContaining("line 1").hasMessageContaining("{oops");
    assertThat(unknownKind).isNotNull().hasMessageContaining("CHARGEBACK");
    assertThat(unknownKind.retryable()).isFalse();
  }

  @Test
  void pageTokenOfAnotherDate_isRefused_notRetryable() throws Exception {
    for (int i = 0; i < 101; i++) {
      payOne("p-" + i);
    }
    LocalDate yesterday = DAY.minusDays(1);
    String token = channel.statement(yesterday, null).nextPageToken();

    ChannelException e =
        catchThrowableOfType(ChannelException.class, () -> channel.statement(DAY, token));

    assertThat(token).isNotNull();
    assertThat(e).isNotNull().hasMessageContaining("400");
    assertThat(e.retryable()).isFalse();
  }

  private List<StatementPage> allPages(LocalDate date) throws ChannelException {
    List<StatementPage> pages = new ArrayList<>();
    String token = null;
    do {
      StatementPage page = channel.statement(date, token);
      pages.add(page);
      token = page.nextPageToken();
    } while (token != null && pages.size() < 10);
    return pages;
  }

  /** Registers and pays a 10.50 USD payment at the clock's instant; returns its id. */
  private String payOne(String paymentId) throws Exception {
    channel.register(
        new ChannelPaymentRequest(
            paymentId,
            SandboxChannelIntegrationTest.MERCHANT,
            Money.ofMinor(1050, "USD"),
            "statement test",
            clock.instant().plus(Duration.ofDays(2))));
    sandbox.pay(paymentId, 200);
    return paymentId;
  }

  private static StatementLine line(
      String txn, String paymentId, String kind, long minor, long secondsIntoDay) {
    return new StatementLine(
        txn,
        paymentId,
        kind,
        Money.ofMinor(minor, "USD"),
        ChannelPaymentStatus.PAID,
        DAY_START.plusSeconds(secondsIntoDay));
  }
}
