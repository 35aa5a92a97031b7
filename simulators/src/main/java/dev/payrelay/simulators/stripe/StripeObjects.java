package dev.payrelay.simulators.stripe;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * The JSON shapes of the Stripe objects the simulator keeps, with the fields payrelay and the SDK
 * read (https://docs.stripe.com/api: the PaymentIntent, Charge, Refund, Dispute and Balance
 * Transaction objects). Times are Unix seconds; amounts are Stripe's integers.
 */
final class StripeObjects {

  private final ObjectMapper json;

  StripeObjects(ObjectMapper json) {
    this.json = json;
  }

  /** A new intent in {@code requires_payment_method}, metadata from {@code metadata[k]} fields. */
  ObjectNode intent(String id, long amount, String currency, Map<String, String> form, long now) {
    ObjectNode pi = json.createObjectNode();
    pi.put("id", id).put("object", "payment_intent").put("amount", amount);
    pi.put("amount_received", 0).put("currency", currency);
    pi.put("client_secret", id + "_secret_" + Long.toHexString(now ^ id.hashCode()));
    pi.put("created", now).put("description", form.get("description")).put("livemode", false);
    pi.putNull("canceled_at").putNull("latest_charge");
    pi.put("status", "requires_payment_method");
    pi.set("metadata", metadata(form));
    return pi;
  }

  /** A succeeded, captured charge of the intent. */
  ObjectNode charge(String id, ObjectNode pi, long now) {
    long amount = pi.get("amount").asLong();
    ObjectNode charge = json.createObjectNode();
    charge.put("id", id).put("object", "charge").put("amount", amount);
    charge.put("amount_captured", amount).put("amount_refunded", 0);
    charge.put("currency", pi.get("currency").asText());
    charge.put("payment_intent", pi.get("id").asText()).put("paid", true).put("refunded", false);
    charge.put("status", "succeeded").put("created", now).putObject("metadata");
    ObjectNode refunds = charge.putObject("refunds");
    refunds.put("object", "list").put("has_more", false).put("url", "/v1/refunds?charge=" + id);
    refunds.putArray("data");
    return charge;
  }

  /**
   * A refund of {@code amount} of the charge, {@code succeeded} or {@code failed} (then with {@code
   * failure_reason} {@code declined}); metadata from {@code metadata[k]} fields.
   */
  ObjectNode refund(
      String id, ObjectNode charge, long amount, Map<String, String> form, boolean fail, long now) {
    ObjectNode refund = json.createObjectNode();
    refund.put("id", id).put("object", "refund").put("amount", amount);
    refund.put("currency", charge.get("currency").asText());
    refund.put("charge", charge.get("id").asText());
    refund.put("payment_intent", charge.get("payment_intent").asText());
    refund.put("status", fail ? "failed" : "succeeded").put("created", now);
    refund.put("failure_reason", fail ? "declined" : null);
    refund.set("metadata", metadata(form));
    return refund;
  }

  private ObjectNode metadata(Map<String, String> form) {
    ObjectNode metadata = json.createObjectNode();
    form.forEach(
        (key, value) -> {
          if (key.startsWith("metadata[") && key.endsWith("]")) {
            metadata.put(key.substring(9, key.length() - 1), value);
          }
        });
    return metadata;
  }

  /** A dispute over the whole charge, awaiting our response. */
  ObjectNode dispute(String id, ObjectNode charge, long now) {
    ObjectNode dispute = json.createObjectNode();
    dispute.put("id", id).put("object", "dispute").put("amount", charge.get("amount").asLong());
    dispute.put("currency", charge.get("currency").asText());
    dispute.put("charge", charge.get("id").asText());
    dispute.put("payment_intent", charge.get("payment_intent").asText());
    dispute.put("reason", "fraudulent").put("status", "needs_response").put("created", now);
    return dispute;
  }

  /** A balance transaction: {@code amount} is signed (a refund's is negative), no fee. */
  ObjectNode balanceTransaction(
      String id, String type, String sourceId, long amount, String currency, long now) {
    ObjectNode txn = json.createObjectNode();
    txn.put("id", id).put("object", "balance_transaction").put("amount", amount);
    txn.put("currency", currency).put("fee", 0).put("net", amount).put("type", type);
    txn.put("reporting_category", type).put("source", sourceId).put("status", "pending");
    txn.put("created", now).put("available_on", now);
    return txn;
  }
}
