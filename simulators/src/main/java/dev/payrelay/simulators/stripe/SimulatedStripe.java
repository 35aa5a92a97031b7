package dev.payrelay.simulators.stripe;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.payrelay.channels.stripe.StripeAmounts;
import dev.payrelay.channels.stripe.StripeApi;
import dev.payrelay.domain.Money;
import dev.payrelay.simulators.SimulatorIds;
import dev.payrelay.simulators.StatementRefundFaults;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The simulator's in-memory Stripe account: PaymentIntents, Charges, Refunds and balance
 * transactions ({@link StripeObjects}' shapes) and the state changes Stripe makes to them.
 * Thread-safe (every method is synchronized).
 */
public final class SimulatedStripe {

  /**
   * Statuses from which Stripe lets an intent be canceled
   * (https://docs.stripe.com/api/payment_intents/cancel).
   */
  private static final Set<String> CANCELABLE =
      Set.of(
          "requires_payment_method",
          "requires_capture",
          "requires_confirmation",
          "requires_action",
          "processing");

  private final ObjectMapper json;
  private final StripeObjects objects;
  private final Clock clock;
  private final Map<String, ObjectNode> intents = new LinkedHashMap<>();
  private final Map<String, ObjectNode> charges = new HashMap<>();
  private final Map<String, ObjectNode> refunds = new LinkedHashMap<>();
  private final List<ObjectNode> balance = new ArrayList<>();
  private final StatementRefundFaults balanceFaults = new StatementRefundFaults();

  public SimulatedStripe(ObjectMapper json, Clock clock) {
    this.json = json;
    this.objects = new StripeObjects(json);
    this.clock = clock;
  }

  /** {@code POST /v1/payment_intents}: amount, currency, description, {@code metadata[k]}. */
  public synchronized ObjectNode createIntent(Map<String, String> form) {
    long amount = positiveAmount(form.get("amount"));
    String currency = form.get("currency");
    Money money;
    try {
      money = StripeAmounts.toMoney(amount, currency);
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw StripeSimulatorException.invalid(400, "parameter_invalid_string", e.getMessage());
    }
    if (StripeAmounts.stripeDecimals(money.currency()) == 3 && amount % 10 != 0) {
      throw StripeSimulatorException.invalid(
          400, "amount_invalid", "three-decimal amounts must end in 0: " + amount);
    }
    String id = nextId("pi");
    ObjectNode pi = objects.intent(id, amount, currency.toLowerCase(Locale.ROOT), form, now());
    intents.put(id, pi);
    return pi.deepCopy();
  }

  /** The intent, or 404 {@code resource_missing}. */
  synchronized ObjectNode intent(String id) {
    return existing(id).deepCopy();
  }

  /** Intents whose {@code metadata[key]} equals {@code value}, oldest first. */
  synchronized List<ObjectNode> searchByMetadata(String key, String value) {
    return byMetadata(intents.values(), key, value);
  }

  /**
   * {@code POST /v1/payment_intents/{id}/cancel}, or 400 {@code payment_intent_unexpected_state}.
   */
  synchronized ObjectNode cancel(String id) {
    ObjectNode pi = existing(id);
    String status = pi.get("status").asText();
    if (!CANCELABLE.contains(status)) {
      throw StripeSimulatorException.invalid(
          400,
          StripeApi.UNEXPECTED_STATE,
          "You cannot cancel this PaymentIntent because it has a status of " + status + ".");
    }
    pi.put("status", "canceled").put("canceled_at", now());
    return pi.deepCopy();
  }

  /** Sets an intent's status as Stripe's lifecycle would (e.g. processing, requires_action). */
  synchronized ObjectNode setStatus(String id, String status) {
    return existing(id).put("status", status).deepCopy();
  }

  /** The buyer paid: intent succeeded, one Charge and its {@code charge} balance transaction. */
  public synchronized ObjectNode succeed(String id) {
    ObjectNode pi = existing(id);
    ObjectNode charge = objects.charge(nextId("ch"), pi, now());
    String chargeId = charge.get("id").asText();
    long amount = charge.get("amount").asLong();
    charges.put(chargeId, charge);
    pi.put("status", "succeeded").put("amount_received", amount).put("latest_charge", chargeId);
    addBalance("charge", chargeId, amount, charge.get("currency").asText());
    return pi.deepCopy();
  }

  /**
   * A full refund of what is left of the intent's charge, made in the dashboard (no metadata).
   *
   * @return the Charge afterwards, its {@code refunds} list included
   */
  public synchronized ObjectNode refund(String id) {
    ObjectNode refund = createRefund(Map.of("payment_intent", id), false);
    return charges.get(refund.get("charge").asText()).deepCopy();
  }

  /**
   * {@code POST /v1/refunds}: payment_intent, optional amount (default: what is left), {@code
   * metadata[k]}. A succeeded refund raises the charge's {@code amount_refunded} (and {@code
   * refunded} once all is back) and adds a {@code refund} balance transaction; a failed one (when
   * {@code fail}) moves nothing. Every refund is in the charge's {@code refunds} list.
   *
   * @throws StripeSimulatorException 404 no such intent; 400 {@code parameter_missing}, {@code
   *     payment_intent_unexpected_state} (not succeeded), {@code charge_already_refunded}, {@code
   *     amount_too_large} (more than is left)
   */
  public synchronized ObjectNode createRefund(Map<String, String> form, boolean fail) {
    String intentId = form.get("payment_intent");
    if (intentId == null) {
      throw StripeSimulatorException.invalid(400, "parameter_missing", "Missing payment_intent");
    }
    if (!"succeeded".equals(existing(intentId).get("status").asText())) {
      throw StripeSimulatorException.invalid(
          400, StripeApi.UNEXPECTED_STATE, intentId + " does not have a successful charge");
    }
    ObjectNode charge = latestCharge(intentId);
    long left = charge.get("amount").asLong() - charge.get("amount_refunded").asLong();
    if (left == 0) {
      throw StripeSimulatorException.invalid(
          400, "charge_already_refunded", "Charge " + charge.get("id").asText() + " is refunded");
    }
    long amount = form.containsKey("amount") ? positiveAmount(form.get("amount")) : left;
    if (amount > left) {
      throw StripeSimulatorException.invalid(
          400,
          "amount_too_large",
          "Refund amount " + amount + " is greater than " + left + " left");
    }
    ObjectNode refund = objects.refund(nextId("re"), charge, amount, form, fail, now());
    String refundId = refund.get("id").asText();
    refunds.put(refundId, refund);
    ((ArrayNode) charge.get("refunds").get("data")).insert(0, refund);
    if (!fail) {
      long refunded = charge.get("amount_refunded").asLong() + amount;
      charge.put("amount_refunded", refunded);
      charge.put("refunded", refunded == charge.get("amount").asLong());
      addBalance("refund", refundId, -amount, refund.get("currency").asText());
    }
    return refund.deepCopy();
  }

  /** The charge a refund refunds, as it is now. */
  synchronized ObjectNode chargeOf(ObjectNode refund) {
    return charges.get(refund.get("charge").asText()).deepCopy();
  }

  /** The refunds whose {@code metadata[key]} equals {@code value}, oldest first. */
  synchronized List<ObjectNode> refundsByMetadata(String key, String value) {
    return byMetadata(refunds.values(), key, value);
  }

  /** Copies of the {@code objects} whose {@code metadata[key]} equals {@code value}, in order. */
  private static List<ObjectNode> byMetadata(
      Collection<ObjectNode> objects, String key, String value) {
    List<ObjectNode> found = new ArrayList<>();
    for (ObjectNode o : objects) {
      if (value.equals(o.path("metadata").path(key).asText(null))) {
        found.add(o.deepCopy());
      }
    }
    return found;
  }

  /**
   * {@code GET /v1/refunds?payment_intent=}: the intent's refunds, newest first, after {@code
   * startingAfter}, at most {@code limit}.
   */
  synchronized ObjectNode listRefunds(String intentId, int limit, String startingAfter) {
    List<ObjectNode> matching = new ArrayList<>();
    for (ObjectNode refund : refunds.values()) {
      if (intentId == null || intentId.equals(refund.get("payment_intent").asText())) {
        matching.add(refund);
      }
    }
    // Refunds are kept in the order they were made; Stripe lists newest first.
    Collections.reverse(matching);
    int from = startingAfter == null ? 0 : indexOf(matching, startingAfter) + 1;
    List<ObjectNode> page = matching.subList(from, Math.min(matching.size(), from + limit));
    ObjectNode list = json.createObjectNode();
    list.put("object", "list").put("url", "/v1/refunds");
    list.put("has_more", from + page.size() < matching.size());
    ArrayNode data = list.putArray("data");
    page.forEach(r -> data.add(r.deepCopy()));
    return list;
  }

  /** A dispute (chargeback) opened on the intent's charge. */
  public synchronized ObjectNode dispute(String id) {
    ObjectNode charge = latestCharge(id);
    ObjectNode dispute = objects.dispute(nextId("dp"), charge, now());
    return dispute;
  }

  /** The refunds ({@code re_…}) balance transactions leave out or list with another amount. */
  StatementRefundFaults balanceFaults() {
    return balanceFaults;
  }

  /**
   * {@code GET /v1/balance_transactions}: newest first, {@code created} in [gte, lt), after {@code
   * startingAfter}, at most {@code limit}; sources expanded on request. A refund's transaction is
   * left out or misstated (its amount and its Refund's) as {@link #balanceFaults} says.
   */
  public synchronized ObjectNode balanceTransactions(
      long gte, long lt, int limit, String startingAfter, boolean source, boolean sourceIntent) {
    List<ObjectNode> matching = new ArrayList<>();
    for (int i = balance.size() - 1; i >= 0; i--) {
      long created = balance.get(i).get("created").asLong();
      String sourceId = balance.get(i).get("source").asText();
      if (created >= gte && created < lt && !balanceFaults.omits(sourceId)) {
        matching.add(balance.get(i));
      }
    }
    int from = 0;
    if (startingAfter != null) {
      from = indexOf(matching, startingAfter) + 1;
    }
    List<ObjectNode> page = matching.subList(from, Math.min(matching.size(), from + limit));
    ObjectNode list = json.createObjectNode();
    list.put("object", "list").put("url", "/v1/balance_transactions");
    list.put("has_more", from + page.size() < matching.size());
    ArrayNode data = list.putArray("data");
    for (ObjectNode txn : page) {
      data.add(expand(misstated(txn.deepCopy()), source, sourceIntent));
    }
    return list;
  }

  /** The transaction with its refund's misstated amount, if any (negative, as refunds are). */
  private ObjectNode misstated(ObjectNode txn) {
    String sourceId = txn.get("source").asText();
    ObjectNode refund = refunds.get(sourceId);
    if (refund != null) {
      Money actual =
          StripeAmounts.toMoney(refund.get("amount").asLong(), refund.get("currency").asText());
      Money listed = balanceFaults.listed(sourceId, actual);
      long amount = -StripeAmounts.toStripeAmount(listed);
      txn.put("amount", amount).put("net", amount);
      txn.put("currency", StripeAmounts.stripeCurrency(listed));
    }
    return txn;
  }

  private ObjectNode expand(ObjectNode txn, boolean source, boolean sourceIntent) {
    if (source || sourceIntent) {
      String sourceId = txn.get("source").asText();
      ObjectNode object =
          (sourceId.startsWith("ch_") ? charges.get(sourceId) : refunds.get(sourceId)).deepCopy();
      if (refunds.containsKey(sourceId)) {
        // The Refund as the misstated transaction lists it (the adapter reads the Refund's amount).
        object.put("amount", -txn.get("amount").asLong());
        object.put("currency", txn.get("currency").asText());
      }
      if (sourceIntent) {
        object.set("payment_intent", intents.get(object.get("payment_intent").asText()).deepCopy());
      }
      txn.set("source", object);
    }
    return txn;
  }

  private static int indexOf(List<ObjectNode> objects, String id) {
    for (int i = 0; i < objects.size(); i++) {
      if (objects.get(i).get("id").asText().equals(id)) {
        return i;
      }
    }
    throw StripeSimulatorException.invalid(400, "resource_missing", "No such object: '" + id + "'");
  }

  private void addBalance(String type, String sourceId, long amount, String currency) {
    ObjectNode txn =
        objects.balanceTransaction(nextId("txn"), type, sourceId, amount, currency, now());
    balance.add(txn);
  }

  private ObjectNode latestCharge(String intentId) {
    String chargeId = existing(intentId).path("latest_charge").asText(null);
    if (chargeId == null || !charges.containsKey(chargeId)) {
      throw StripeSimulatorException.invalid(400, "charge_missing", intentId + " has no charge");
    }
    return charges.get(chargeId);
  }

  private ObjectNode existing(String id) {
    ObjectNode pi = intents.get(id);
    if (pi == null) {
      throw StripeSimulatorException.invalid(
          404, "resource_missing", "No such payment_intent: '" + id + "'");
    }
    return pi;
  }

  private static long positiveAmount(String text) {
    if (text == null || !text.matches("[1-9][0-9]{0,17}")) {
      throw StripeSimulatorException.invalid(
          400, "parameter_invalid_integer", "Invalid positive integer: " + text);
    }
    return Long.parseLong(text);
  }

  /**
   * Stripe's id shape, a type prefix, {@code _} and 24 alphanumerics; random so that a new
   * simulator never hands out an id an earlier one gave a payment still in our database.
   */
  private static String nextId(String prefix) {
    return prefix + "_" + SimulatorIds.alphanumeric(24);
  }

  private long now() {
    return clock.instant().getEpochSecond();
  }
}
