package dev.payrelay.workflows;

/** The Temporal task queue names payrelay's workers poll. The only place they are spelled. */
public final class TaskQueues {

  /** Payment workflows and their activities (publish, grant, channel calls). */
  public static final String PAYMENTS = "payrelay-payments";

  private TaskQueues() {}
}
