package dev.payrelay.ledger.reconciliation;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.ledger.checks.RepairKind;
import dev.payrelay.ledger.checks.RepairStatus;
import java.time.Instant;
import java.time.LocalDate;

/**
 * A {@code reconciliation_item} row: one discrepancy of one statement day and its repair.
 *
 * @param id the row id
 * @param channel the channel whose statement it came from
 * @param statementDate the statement day (the channel's settlement day, UTC for the sandbox)
 * @param kind what disagrees
 * @param channelTxnId the statement line's transaction (for a refund line, the channel's refund
 *     id); for gaps found on our side, our payment's transaction (or {@code ours:{paymentId}} if it
 *     has none), or our refund's channel refund id
 * @param paymentId our payment, or null when the line names none of ours
 * @param refundId for a refund gap, our refund it is about ({@code refund_id}, V20); null for a
 *     payment gap and for a refund line naming no refund of ours
 * @param channelAmount what the statement says moved, or null when it has no line for it
 * @param ourAmount our payment's amount (for a refund gap with a refund of ours: that refund's), or
 *     null without one
 * @param ourStatus our payment's status when found, or null without a payment
 * @param repair the repair its kind calls for
 * @param repairStatus PENDING until a repair ran, then DONE or FAILED
 * @param exceptionId the {@code payment_exception} recorded with it, or null
 * @param details the comparison as found, for people
 * @param repairDetails what the last repair did or why it failed; null before any
 * @param createdAt when it was first found (database clock)
 * @param updatedAt when it last changed (database clock)
 */
public record ReconciliationItem(
    long id,
    String channel,
    LocalDate statementDate,
    ReconciliationKind kind,
    String channelTxnId,
    String paymentId,
    String refundId,
    Money channelAmount,
    Money ourAmount,
    PaymentStatus ourStatus,
    RepairKind repair,
    RepairStatus repairStatus,
    Long exceptionId,
    String details,
    String repairDetails,
    Instant createdAt,
    Instant updatedAt) {}
