package dev.payrelay.app.temporal;

import dev.payrelay.workflows.PaymentLogContext;
import dev.payrelay.workflows.WorkflowIds;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptor;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptorBase;
import io.temporal.common.interceptors.WorkerInterceptorBase;

/**
 * Puts the payment's ids ({@link PaymentLogContext}: {@code paymentId}, {@code workflowId}) in the
 * MDC while an activity of a payment workflow runs, so its log lines name the payment whatever the
 * activity logs. The payment comes from the calling workflow's id ({@link
 * WorkflowIds#paymentIdOf}); activities of other workflows (reconciliation) run without. The SDK's
 * own MDC keys ({@code WorkflowId}, {@code ActivityType}, ...) stay as they are.
 */
public final class PaymentLogInterceptor extends WorkerInterceptorBase {

  @Override
  public ActivityInboundCallsInterceptor interceptActivity(ActivityInboundCallsInterceptor next) {
    return new ActivityInboundCallsInterceptorBase(next) {
      private ActivityExecutionContext context;

      @Override
      public void init(ActivityExecutionContext context) {
        this.context = context;
        super.init(context);
      }

      @Override
      public ActivityOutput execute(ActivityInput input) {
        String paymentId = WorkflowIds.paymentIdOf(context.getInfo().getWorkflowId()).orElse(null);
        try (PaymentLogContext ignored = PaymentLogContext.of(paymentId, null)) {
          return super.execute(input);
        }
      }
    };
  }
}
