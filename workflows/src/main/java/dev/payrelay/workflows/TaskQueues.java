package dev.payrelay.workflows;

/** The Temporal task queue names payrelay's workers poll. The only place they are spelled. */
public final class TaskQueues {

  /** Payment workflows and their activities (publish, grant, channel calls). */
  public static final String PAYMENTS = "payrelay-payments";

  /**
   * Reconciliation workflows and their activities: statement reads are slow and bulky, so they get
   * their own pollers and never delay a payment's activities.
   */
  public static final String RECONCILIATION = "payrelay-reconciliation";

  private TaskQueues() {}
}
