package dev.payrelay.workflows;

import io.temporal.common.SearchAttributeKey;
import java.util.List;

/**
 * The search attributes a refund's workflow carries besides the payment's {@link
 * PaymentSearchAttributes#PAYMENT_ID}, {@link PaymentSearchAttributes#TENANT_ID} and {@link
 * PaymentSearchAttributes#CHANNEL}, so an operator finds it in the Temporal UI ({@code RefundState
 * = "NEEDS_ATTENTION"}). Keyword typed; registered on the namespace before workers start.
 */
public final class RefundSearchAttributes {

  /** Our refund id. */
  public static final SearchAttributeKey<String> REFUND_ID =
      SearchAttributeKey.forKeyword("RefundId");

  /** The {@link RefundWorkflowState} name, kept current by the workflow. */
  public static final SearchAttributeKey<String> REFUND_STATE =
      SearchAttributeKey.forKeyword("RefundState");

  /** The keys only refunds carry, for registration on a namespace beside the payment's. */
  public static final List<SearchAttributeKey<String>> ALL = List.of(REFUND_ID, REFUND_STATE);

  private RefundSearchAttributes() {}
}
