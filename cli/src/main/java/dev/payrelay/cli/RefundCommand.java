package dev.payrelay.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payrelay.domain.Money;
import dev.payrelay.ledger.refund.RefundRefused;
import dev.payrelay.ledger.refund.RefundRequests;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code payrelay refund create|show|list} (issue 28 item 1), over {@code POST/GET
 * /v1/payments/{id}/refunds} and {@code GET /v1/refunds/{refundId}}, and the fixes of a stuck
 * refund ({@link RefundFixCommands}: {@code requery}, {@code accept}, {@code fail}). Exit codes as
 * {@link AdminClient}'s: 0 done, 2 refused (no such payment or refund, another tenant's answering
 * the same 404; more than refundable, not paid, the key reused with another body), 3 unreachable, 4
 * not allowed (no key, a bad key, too small a role).
 */
@Command(
    name = "refund",
    mixinStandardHelpOptions = true,
    description =
        "Refunds of a PAID payment: request one, show one, list a payment's; fix a stuck one.",
    subcommands = {
      RefundCommand.Create.class,
      RefundCommand.Show.class,
      RefundCommand.ListRefunds.class,
      RefundFixCommands.Requery.class,
      RefundFixCommands.Accept.class,
      RefundFixCommands.Fail.class
    })
final class RefundCommand extends CommandGroup {

  /** {@code payrelay refund create}. */
  @Command(
      name = "create",
      mixinStandardHelpOptions = true,
      description = {
        "Requests a refund of a PAID payment, full or partial, within what is refundable.",
        "The Idempotency-Key defaults to a fresh UUID, printed: retry with --key to get the same",
        "refund instead of a second one.",
        "Exits 0 requested or replayed, 2 refused, 3 API unavailable or answer lost (retry with",
        "--key), 4 no key or a role below operate."
      })
  static final class Create implements Callable<Integer> {

    /** The API's status for the refund an earlier request with the same key and body made. */
    static final int REPLAYED = 200;

    @Mixin AdminApi api;

    @Parameters(index = "0", description = "The payment id, pay_...")
    String paymentId;

    /** Exactly one way to give the amount. */
    static final class Amount {
      @Option(
          names = "--amount",
          description = "In major units of the payment's currency, e.g. 10.50 (USD), 500 (JPY).")
      String major;

      @Option(names = "--amount-minor", description = "In ISO 4217 minor units, e.g. 1050.")
      Long minor;

      /**
       * Refuses, before anything is asked of the API, an amount that is not more than zero or not a
       * plain decimal, naming the option it came from and the rule it breaks.
       *
       * @throws AdminClient.Failure {@link AdminClient#REFUSED}, e.g. {@code --amount-minor 0: must
       *     be a whole number more than zero, in minor units (e.g. 1050 for 10.50 USD)}
       */
      void check() {
        if (minor != null && minor <= 0) {
          throw refused(
              "--amount-minor " + minor,
              "a whole number more than zero, in minor units (e.g. 1050 for 10.50 USD)");
        }
        if (major != null
            && (!Money.PLAIN_DECIMAL.matcher(major).matches()
                || new BigDecimal(major).signum() == 0)) {
          throw refused(
              "--amount " + major,
              "digits with an optional fraction, more than zero, in major units of the payment's"
                  + " currency (e.g. 10.50 for USD, 500 for JPY)");
        }
      }

      private static AdminClient.Failure refused(String given, String rule) {
        return new AdminClient.Failure(AdminClient.REFUSED, given + ": must be " + rule);
      }
    }

    @ArgGroup(multiplicity = "1")
    Amount amount;

    @Option(names = "--reason", required = true, description = "Why, at most 500 characters.")
    String reason;

    @Option(names = "--key", description = "The Idempotency-Key (default: a new UUID, printed).")
    String key;

    @Option(names = "--json", description = "Print the API's JSON refund instead.")
    boolean json;

    @Override
    public Integer call() throws InterruptedException {
      String idempotencyKey = key != null ? key : UUID.randomUUID().toString();
      return api.call(
          client -> {
            amount.check();
            long minor = amount.minor != null ? amount.minor : minorOf(client);
            try {
              RefundRequests.checkFields(paymentId, minor, reason, idempotencyKey);
            } catch (RefundRefused e) {
              throw new AdminClient.Failure(AdminClient.REFUSED, e.getMessage());
            }
            if (key == null) {
              // Only a request about to be sent has a key worth retrying with. With --json,
              // stdout is the refund alone; the key still reaches the operator.
              (json ? api.err() : api.out())
                  .println("Idempotency-Key " + idempotencyKey + " (retry with --key to repeat)");
            }
            AdminClient.Answer answer =
                client.post(
                    "/v1/payments/" + paymentId + "/refunds",
                    Map.of("amountMinor", minor, "reason", reason),
                    Map.of("Idempotency-Key", idempotencyKey));
            JsonNode refund = answer.body();
            if (answer.status() == REPLAYED) {
              (json ? api.err() : api.out())
                  .println(
                      "replayed: Idempotency-Key "
                          + idempotencyKey
                          + " already made refund "
                          + refund.path("refundId").asText()
                          + "; no new refund was requested");
            }
            return api.print(refund, json, out -> printRefund(refund, out));
          });
    }

    /** {@code --amount} in the payment's currency's minor units (per ISO 4217, {@link Money}). */
    private long minorOf(AdminClient client) {
      String currency =
          client
              .get("/v1/payments/" + paymentId, AdminClient.params())
              .path("payment")
              .path("amount")
              .path("currency")
              .asText();
      try {
        return Money.parse(amount.major, currency).minorUnits();
      } catch (IllegalArgumentException e) {
        throw new AdminClient.Failure(
            AdminClient.REFUSED, "--amount " + amount.major + ": " + e.getMessage());
      }
    }
  }

  /** {@code payrelay refund show}. */
  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = "One refund, and its workflow (run, status, UI link, what it waits for).")
  static final class Show implements Callable<Integer> {

    @Mixin AdminApi api;

    @Parameters(index = "0", description = "The refund id, rfd_...")
    String refundId;

    @Option(names = "--json", description = "Print the API's JSON refund instead.")
    boolean json;

    @Override
    public Integer call() throws InterruptedException {
      return api.call(
          client -> {
            JsonNode refund = client.get("/v1/refunds/" + refundId, AdminClient.params());
            return api.print(
                refund,
                json,
                out -> {
                  printRefund(refund, out);
                  TrailWorkflow.print(refund.path("workflow"), "refund-" + refundId, out);
                });
          });
    }
  }

  /** {@code payrelay refund list}. */
  @Command(name = "list", mixinStandardHelpOptions = true, description = "A payment's refunds.")
  static final class ListRefunds implements Callable<Integer> {

    @Mixin AdminApi api;

    @Parameters(index = "0", description = "The payment id, pay_...")
    String paymentId;

    @Option(names = "--json", description = "Print the API's JSON list instead.")
    boolean json;

    @Override
    public Integer call() throws InterruptedException {
      return api.call(
          client -> {
            JsonNode page =
                client.get("/v1/payments/" + paymentId + "/refunds", AdminClient.params());
            return api.print(
                page,
                json,
                out -> {
                  if (page.path("refunds").isEmpty()) {
                    out.println("no refunds of " + paymentId);
                  }
                  page.path("refunds").forEach(r -> printRefund(r, out));
                });
          });
    }
  }

  /**
   * One refund as a line: id, state, amount (e.g. {@code 5.00 USD (500 minor units)}, decimals per
   * the currency's ISO 4217 exponent), number, channel id, reason.
   */
  static void printRefund(JsonNode r, PrintWriter out) {
    out.printf(
        "%s  %-9s  %s (%d minor units)  number %s%s  by %s: %s%n",
        r.path("refundId").asText(),
        r.path("state").asText(),
        PaymentTrail.amount(r.path("amount")),
        r.path("amount").path("minorUnits").asLong(),
        r.path("refundNo").asText(),
        r.path("channelRefundId").isTextual()
            ? "  channel " + r.path("channelRefundId").asText()
            : "",
        r.path("requestedBy").asText(),
        r.path("reason").asText()
            + (r.path("failureReason").isTextual()
                ? " (failed: " + r.path("failureReason").asText() + ")"
                : ""));
  }
}
