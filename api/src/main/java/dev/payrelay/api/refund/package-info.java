/** Refund requests and reads over HTTP (issue 28 item 1). */
package dev.payrelay.api.refund;
