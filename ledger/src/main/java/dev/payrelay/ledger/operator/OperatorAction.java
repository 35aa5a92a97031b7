package dev.payrelay.ledger.operator;

import dev.payrelay.ledger.outbox.DeadEvents;

/**
 * One operator request as it is audited in {@code operator_action}: who asked what of which target,
 * why, and the request's idempotency key.
 *
 * @param key the action key (for a workflow's signal: {@code {workflowId}:{originalRunId}:{n}}), or
 *     null for a request without one (e.g. the admin API's own refusals). A repeat with the same
 *     key is answered with the stored result ({@link OperatorActions#once})
 * @param operator who asked; may be null or blank for an invalid request
 * @param action the action's name as asked, kept even when unknown
 * @param targetType {@link PaymentResolutions#TARGET} or {@link DeadEvents#TARGET}
 * @param targetId the payment or event id
 * @param reason why, as given; may be null or blank for an invalid request
 */
public record OperatorAction(
    String key,
    String operator,
    String action,
    String targetType,
    String targetId,
    String reason) {}
