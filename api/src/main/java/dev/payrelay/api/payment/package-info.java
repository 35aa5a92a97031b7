/**
 * Creating payment attempts ({@link dev.payrelay.api.payment.PaymentService}) and reading a
 * payment's trail.
 */
package dev.payrelay.api.payment;
