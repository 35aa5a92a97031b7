package dev.payrelay.temporal.client;

import dev.payrelay.domain.IdCharacters;
import dev.payrelay.workflows.PaymentSearchAttributes;
import dev.payrelay.workflows.PaymentWorkflow;
import dev.payrelay.workflows.PaymentWorkflowState;
import io.temporal.common.metadata.POJOWorkflowInterfaceMetadata;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * Which payment workflows to list, and the Temporal List Filter (visibility query) that selects
 * them: the same text an operator types into the Web UI's query box, e.g. {@code WorkflowType =
 * "PaymentWorkflow" AND PaymentState = "NEEDS_ATTENTION" AND TenantId = "t1"}.
 *
 * <p>Values are validated before they are quoted into the query, so no input can change its shape:
 * the state must name a {@link PaymentWorkflowState}; tenant and channel ids may not contain
 * quotes, backslashes, backticks, control or format characters ({@link IdCharacters}; payrelay's
 * ids never do) and are as long as their columns at most (64 and 32 characters, migration V1).
 *
 * @param state only workflows in this state, or null for every state
 * @param tenantId only this tenant's payments, or null for every tenant
 * @param channel only this channel's payments, or null for every channel
 * @param orderId only the payments of this merchant order id ({@code OrderId}), or null for any
 */
public record PaymentListingFilter(
    PaymentWorkflowState state, String tenantId, String channel, String orderId) {

  /** Longest tenant id payrelay stores ({@code payment_order.tenant_id}). */
  public static final int MAX_TENANT_LENGTH = 64;

  /** Longest channel name payrelay stores ({@code payment_order.channel}). */
  public static final int MAX_CHANNEL_LENGTH = 32;

  /** Longest order id payrelay stores ({@code payment_order.order_id}). */
  public static final int MAX_ORDER_ID_LENGTH = 128;

  /** Longest payment id payrelay stores ({@code payment_order.payment_id}). */
  public static final int MAX_PAYMENT_ID_LENGTH = 64;

  private static final String WORKFLOW_TYPE =
      POJOWorkflowInterfaceMetadata.newInstance(PaymentWorkflow.class)
          .getWorkflowType()
          .orElseThrow();

  /**
   * A filter checked as {@link #of} checks one.
   *
   * @throws IllegalArgumentException for a tenant or channel that is blank, too long or holds a
   *     character the query language could read as syntax
   */
  public PaymentListingFilter {
    tenantId = checkedValue("tenantId", tenantId, MAX_TENANT_LENGTH);
    channel = checkedValue("channel", channel, MAX_CHANNEL_LENGTH);
    orderId = checkedValue("orderId", orderId, MAX_ORDER_ID_LENGTH);
  }

  /** A filter on state, tenant and channel, any order id. */
  public PaymentListingFilter(PaymentWorkflowState state, String tenantId, String channel) {
    this(state, tenantId, channel, null);
  }

  /**
   * A filter from user input (admin API parameters, CLI options); null or blank means "any".
   *
   * @param state a {@link PaymentWorkflowState} name, any letter case
   * @throws IllegalArgumentException for an unknown state, or a tenant or channel the constructor
   *     refuses; the message names the parameter and what is allowed
   */
  public static PaymentListingFilter of(String state, String tenantId, String channel) {
    return of(state, tenantId, channel, null);
  }

  /**
   * As {@link #of(String, String, String)}, also by the merchant's order id (how a customer names
   * the payment), checked as a tenant id is.
   */
  public static PaymentListingFilter of(
      String state, String tenantId, String channel, String orderId) {
    return new PaymentListingFilter(
        parseState(state), blankToNull(tenantId), blankToNull(channel), blankToNull(orderId));
  }

  /**
   * The List Filter: {@code WorkflowType = "PaymentWorkflow"} and one {@code Key = "value"} clause
   * per given value, joined by AND, in the order state, tenant, channel, order.
   */
  public String query() {
    List<String> clauses = new ArrayList<>();
    clauses.add(equal("WorkflowType", WORKFLOW_TYPE));
    if (state != null) {
      clauses.add(equal(PaymentSearchAttributes.PAYMENT_STATE.getName(), state.name()));
    }
    if (tenantId != null) {
      clauses.add(equal(PaymentSearchAttributes.TENANT_ID.getName(), tenantId));
    }
    if (channel != null) {
      clauses.add(equal(PaymentSearchAttributes.CHANNEL.getName(), channel));
    }
    if (orderId != null) {
      clauses.add(equal(PaymentSearchAttributes.ORDER_ID.getName(), orderId));
    }
    return String.join(" AND ", clauses);
  }

  /**
   * The List Filter selecting every run (running or closed, each continuation) of these payments'
   * workflows: {@code WorkflowType = "PaymentWorkflow" AND PaymentId IN ("a", "b")}.
   *
   * @throws IllegalArgumentException for no ids, or an id refused as the constructor refuses a
   *     tenant (blank, longer than 64 characters, quotes, backslashes, control or format
   *     characters)
   */
  public static String paymentIdsQuery(Collection<String> paymentIds) {
    if (paymentIds.isEmpty()) {
      throw new IllegalArgumentException("at least one payment id is needed");
    }
    List<String> quoted = new ArrayList<>();
    for (String id : paymentIds) {
      quoted.add("\"" + checkedValue("paymentId", id, MAX_PAYMENT_ID_LENGTH) + "\"");
    }
    return equal("WorkflowType", WORKFLOW_TYPE)
        + " AND "
        + PaymentSearchAttributes.PAYMENT_ID.getName()
        + " IN ("
        + String.join(", ", quoted)
        + ")";
  }

  /**
   * The List Filter of the running payments whose channel queries fail in a row ({@code
   * PaymentAttention = "channel-query"}, set by the workflow's {@code QueryAttention}): {@code
   * WorkflowType = "PaymentWorkflow" AND ExecutionStatus = "Running" AND PaymentAttention =
   * "channel-query"}.
   */
  public static String channelQueriesFailing() {
    return equal("WorkflowType", WORKFLOW_TYPE)
        + " AND "
        + equal("ExecutionStatus", "Running")
        + " AND "
        + equal(
            PaymentSearchAttributes.PAYMENT_ATTENTION.getName(),
            PaymentSearchAttributes.CHANNEL_QUERY_FAILING);
  }

  private static String equal(String key, String value) {
    return key + " = \"" + value + "\"";
  }

  private static PaymentWorkflowState parseState(String state) {
    if (state == null || state.isBlank()) {
      return null;
    }
    try {
      return PaymentWorkflowState.valueOf(state.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "state must be one of "
              + Arrays.toString(PaymentWorkflowState.values())
              + ", got "
              + state);
    }
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }

  private static String checkedValue(String name, String value, int maxLength) {
    if (value == null) {
      return null;
    }
    if (value.isBlank() || value.length() > maxLength) {
      throw new IllegalArgumentException(name + " must be 1.." + maxLength + " characters");
    }
    for (int c : value.codePoints().toArray()) {
      // Refused rather than escaped: whether an escape survives depends on the server's parser.
      if (c == '"' || c == '\'' || c == '`' || c == '\\' || IdCharacters.refused(c)) {
        throw new IllegalArgumentException(
            name
                + " must not contain quotes, backticks, backslashes, control or format characters"
                + " (bidirectional controls among them)");
      }
    }
    return value;
  }
}
