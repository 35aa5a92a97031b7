package dev.payrelay.workflows;

/**
 * Start argument of {@link DailyReconciliationWorkflow}: fixed per Schedule, since the day comes
 * from the action's scheduled time.
 *
 * @param channel the channel name, e.g. {@code sandbox}
 */
public record DailyReconciliationInput(String channel) {}
