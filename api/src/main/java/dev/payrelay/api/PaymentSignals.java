package dev.payrelay.api;

import dev.payrelay.workflows.ResolveSignal;

/** Sends operator signals to a payment's workflow ({@code payment-{paymentId}}). */
public interface PaymentSignals {

  /**
   * Signals {@code resolve} to the payment's running workflow.
   *
   * @throws NoRunningWorkflowException if the payment has no running workflow
   * @throws RuntimeException if Temporal cannot be reached
   */
  void resolve(String paymentId, ResolveSignal signal);
}
