/**
 * Channel callbacks: stored raw, verified, applied to the ledger in one transaction, answered in
 * the channel's protocol ({@link dev.payrelay.api.webhook.WebhookService}).
 */
package dev.payrelay.api.webhook;
