package dev.payrelay.workflows.activities;

/**
 * What a repair did.
 *
 * @param itemId the item
 * @param repair its repair: {@code QUERY_AND_CONFIRM}, {@code REGRANT}, {@code EXCEPTION} or {@code
 *     REVIEW}
 * @param status the item's repair status afterwards: {@code DONE} or {@code FAILED}
 * @param details what was done or why it failed, for people
 */
public record RepairResult(long itemId, String repair, String status, String details) {}
