package dev.payrelay.api.http;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Runs a request's database work on a fixed set of platform threads while its virtual thread waits
 * for the result. Virtual threads share a few carriers (one per core) in FIFO order: on a virtual
 * thread, each of a callback's database round trips would queue again behind every runnable virtual
 * thread, and a burst of slow clients being cut and reconnecting makes many runnable at once.
 * Platform threads are scheduled by the operating system instead, so the callback waits in that
 * queue only when it starts and when it answers.
 */
final class PlatformHandoff implements AutoCloseable {

  private final ExecutorService threads;

  /**
   * @param name the threads' name prefix
   * @param size how many run at once; more wait in order
   */
  PlatformHandoff(String name, int size) {
    this.threads =
        Executors.newFixedThreadPool(size, Thread.ofPlatform().name(name, 0).daemon().factory());
  }

  /**
   * {@code work}'s result, computed on one of the threads.
   *
   * @throws RuntimeException what {@code work} threw, unwrapped, so the API's error mapping sees it
   */
  <T> T call(Callable<T> work) throws Exception {
    try {
      return threads.submit(work).get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw e;
    }
  }

  @Override
  public void close() {
    threads.shutdownNow();
  }
}
