package dev.payrelay.workflows;

import io.temporal.common.SearchAttributeKey;
import java.util.List;

/**
 * The search attributes a payment's workflow carries, so an operator can find it in the Temporal UI
 * ({@code PaymentId = "..."}, {@code PaymentState = "NEEDS_ATTENTION"}). All are Keyword typed and
 * must be registered on the namespace before workers start.
 */
public final class PaymentSearchAttributes {

  /** Our payment id. */
  public static final SearchAttributeKey<String> PAYMENT_ID =
      SearchAttributeKey.forKeyword("PaymentId");

  /** The merchant's order id. */
  public static final SearchAttributeKey<String> ORDER_ID =
      SearchAttributeKey.forKeyword("OrderId");

  /** The tenant owning the order. */
  public static final SearchAttributeKey<String> TENANT_ID =
      SearchAttributeKey.forKeyword("TenantId");

  /** The channel name. */
  public static final SearchAttributeKey<String> CHANNEL = SearchAttributeKey.forKeyword("Channel");

  /** The {@link PaymentWorkflowState} name, kept current by the workflow. */
  public static final SearchAttributeKey<String> PAYMENT_STATE =
      SearchAttributeKey.forKeyword("PaymentState");

  /** Every key, for registration on a namespace. */
  public static final List<SearchAttributeKey<String>> ALL =
      List.of(PAYMENT_ID, ORDER_ID, TENANT_ID, CHANNEL, PAYMENT_STATE);

  private PaymentSearchAttributes() {}
}
