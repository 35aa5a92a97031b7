/**
 * What operators do through the admin API and the CLI: fix one payment or event with a signal to
 * its workflow ({@link dev.payrelay.api.admin.AdminService}, each signal carrying a token from
 * {@link dev.payrelay.api.admin.SignalTokenIssuer}), list payments by workflow state, start and
 * read reconciliations, list and replay the consumers' quarantine queues.
 */
package dev.payrelay.api.admin;
