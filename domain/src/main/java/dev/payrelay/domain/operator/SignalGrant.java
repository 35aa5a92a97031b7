package dev.payrelay.domain.operator;

import java.time.Instant;

/**
 * What a signal token vouches for: that the admin API, for the API key {@code keyId} of {@code
 * operator}, allowed {@code action} on {@code target} through the signal to {@code workflowId},
 * until {@code expiresAt}.
 *
 * @param workflowId the workflow the signal goes to, e.g. {@code payment-pay_…}
 * @param action the audited action name: a {@code ResolutionAction} ({@code ACCEPT_AS_PAID}, …) or
 *     {@code REPLAY_EVENT} / {@code DISCARD_EVENT}
 * @param target what it acts on: the payment id for a resolution or a requery, the event id for an
 *     event operation, the payment id and the new deadline for an extension ({@link
 *     SignalTokens#deadlineTarget})
 * @param operator the API key's operator, the name the audit row records
 * @param keyId the API key's public id
 * @param expiresAt the last instant the token is accepted (whole seconds)
 */
public record SignalGrant(
    String workflowId,
    String action,
    String target,
    String operator,
    String keyId,
    Instant expiresAt) {}
