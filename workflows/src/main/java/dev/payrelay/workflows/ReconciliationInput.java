package dev.payrelay.workflows;

/**
 * Start argument of {@link ReconciliationWorkflow}.
 *
 * @param channel the channel name, e.g. {@code sandbox}
 * @param date the statement day, ISO-8601 ({@code yyyy-MM-dd}), in the channel's settlement time
 *     zone (UTC for the sandbox)
 */
public record ReconciliationInput(String channel, String date) {}
