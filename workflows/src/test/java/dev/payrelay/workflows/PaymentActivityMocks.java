package dev.payrelay.workflows;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;
import static org.mockito.Mockito.withSettings;

import dev.payrelay.workflows.activities.ChannelActivities;
import dev.payrelay.workflows.activities.EntitlementActivities;
import dev.payrelay.workflows.activities.LedgerActivities;
import dev.payrelay.workflows.activities.OutboxActivities;
import dev.payrelay.workflows.activities.PublishRequest;
import dev.payrelay.workflows.activities.PublishResult;
import dev.payrelay.workflows.activities.ResolutionActivities;
import io.temporal.worker.Worker;

/**
 * Mocks of every activity a payment's workflow calls, registered on a test worker; publishing
 * succeeds unless a test says otherwise.
 */
record PaymentActivityMocks(
    OutboxActivities outbox,
    EntitlementActivities entitlements,
    ResolutionActivities resolutions,
    ChannelActivities channel,
    LedgerActivities ledger) {

  static PaymentActivityMocks registeredOn(Worker worker) {
    PaymentActivityMocks m =
        new PaymentActivityMocks(
            mock(OutboxActivities.class, withSettings().withoutAnnotations()),
            mock(EntitlementActivities.class, withSettings().withoutAnnotations()),
            mock(ResolutionActivities.class, withSettings().withoutAnnotations()),
            mock(ChannelActivities.class, withSettings().withoutAnnotations()),
            mock(LedgerActivities.class, withSettings().withoutAnnotations()));
    worker.registerActivitiesImplementations(
        m.outbox, m.entitlements, m.resolutions, m.channel, m.ledger);
    // Outside production mode every operator's identity is accepted (audited as unverified).
    when(m.resolutions.mayApply(any())).thenReturn(true);
    when(m.outbox.publish(any()))
        .thenAnswer(
            call -> new PublishResult(call.<PublishRequest>getArgument(0).eventId(), false));
    return m;
  }
}
