package dev.payrelay.api.refund;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.payrelay.ledger.refund.RefundRow;
import dev.payrelay.temporal.client.WorkflowSummary;

/**
 * One refund as {@code GET /v1/refunds/{refundId}} answers it: the refund's own fields (as in a
 * list) at the top level, and its workflow {@code refund-{refundId}}.
 *
 * @param refund the ledger's refund, unwrapped into this object
 * @param workflow its workflow's latest run, current details and what it waits for; null when the
 *     API runs without a Temporal client
 */
public record RefundDetail(@JsonUnwrapped RefundRow refund, WorkflowSummary workflow) {}
