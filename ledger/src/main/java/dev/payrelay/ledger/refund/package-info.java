/**
 * Refunds in the ledger (issue 28): the request, under the payment's row lock and within the
 * captured amount, and the channel's outcome, each in one local transaction with its outbox event.
 */
package dev.payrelay.ledger.refund;
