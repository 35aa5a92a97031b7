package dev.payrelay.worker;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code payrelay dev}: everything in one process on local services. */
@Command(
    name = "dev",
    mixinStandardHelpOptions = true,
    description = {
      "Run everything in one process: database migrated, embedded Temporal, worker, API, sandbox.",
      "Creates the database if missing; Temporal is the Java test server on a port (search attributes",
      "registered); the worker runs the outbox dispatcher. Prints where each part listens.",
      "Needs MySQL/MariaDB on 127.0.0.1:3306 and RabbitMQ on 127.0.0.1:5672 (PAYRELAY_* variables override)."
    })
final class DevCommand implements Callable<Integer> {

  @Override
  public Integer call() throws Exception {
    PayrelayConfig config = PayrelayCommand.config();
    DevStack stack = DevStack.start(config, System.out);
    System.out.println("payrelay dev is running; try: ./payrelay demo   (Ctrl-C stops)");
    PayrelayCommand.runUntilStopped(stack);
    return 0;
  }
}
