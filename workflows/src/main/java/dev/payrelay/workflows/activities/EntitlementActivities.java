package dev.payrelay.workflows.activities;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/** Grants what a PAID payment bought. Type names are prefixed {@code Entitlement}. */
@ActivityInterface(namePrefix = "Entitlement")
public interface EntitlementActivities {

  /**
   * Inserts one entitlement per purchased course under the unique business key {@code (user_id,
   * course_id, purchase_id)}. Idempotent: a repeat finds the rows by that unique index and grants
   * nothing new.
   *
   * @throws io.temporal.failure.ApplicationFailure of type {@code PAYMENT_NOT_PAID} (non-retryable)
   *     when the payment is not PAID
   */
  @ActivityMethod
  GrantResult grant(GrantEntitlementsRequest request);
}
