package dev.payrelay.tools.bench;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/** The workflow baseline's one activity, which does no work. */
@ActivityInterface(namePrefix = "Bench")
public interface BenchActivities {

  /** Gives back {@code request}'s index as text. */
  @ActivityMethod
  String echo(BenchWorkflow.Request request);
}
