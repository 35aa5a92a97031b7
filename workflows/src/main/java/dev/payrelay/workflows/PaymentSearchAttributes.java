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

  /**
   * Why a payment in NEEDS_ATTENTION waits, where no event of its own says so: {@code
   * channel-query} while its channel queries fail in a row ({@link QueryAttention}); unset
   * otherwise.
   */
  public static final SearchAttributeKey<String> PAYMENT_ATTENTION =
      SearchAttributeKey.forKeyword("PaymentAttention");

  /** {@link #PAYMENT_ATTENTION}'s value while the payment's channel queries fail in a row. */
  public static final String CHANNEL_QUERY_FAILING = "channel-query";

  /** Every key, for registration on a namespace. */
  public static final List<SearchAttributeKey<String>> ALL =
      List.of(PAYMENT_ID, ORDER_ID, TENANT_ID, CHANNEL, PAYMENT_STATE, PAYMENT_ATTENTION);

  private PaymentSearchAttributes() {}
}
