package dev.payrelay.simulators.sandbox;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the sandbox saw of each refund number: how many submits reached it, how many queries, and
 * how many answers it gave about the refund once made. Tests read the submit count to prove "the
 * channel saw exactly one submit" ({@link SandboxSimulator#refundCalls}, {@code GET
 * /sandbox/v1/admin/refunds/{refundNo}/calls}); the {@link dev.payrelay.simulators.RefundMode}'s
 * answer faults are counted against it.
 */
public final class RefundCalls {

  /**
   * One refund number's counts.
   *
   * @param submits submits received with this number, lost ones included
   * @param queries queries received for this number
   */
  public record Counts(int submits, int queries) {}

  private final ConcurrentHashMap<String, AtomicInteger> submits = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, AtomicInteger> queries = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, AtomicInteger> answers = new ConcurrentHashMap<>();

  /** Counts a submit of {@code refundNo}; returns its number (1 for the first). */
  int submitted(String refundNo) {
    return count(submits, refundNo);
  }

  /** Counts a query of {@code refundNo}; returns its number (1 for the first). */
  int queried(String refundNo) {
    return count(queries, refundNo);
  }

  /** Counts an answer about the made refund {@code refundNo}; returns its number. */
  int answered(String refundNo) {
    return count(answers, refundNo);
  }

  /** The counts for {@code refundNo} (zeros for a number never seen). */
  Counts of(String refundNo) {
    return new Counts(read(submits, refundNo), read(queries, refundNo));
  }

  private static int count(ConcurrentHashMap<String, AtomicInteger> map, String refundNo) {
    return map.computeIfAbsent(refundNo, n -> new AtomicInteger()).incrementAndGet();
  }

  private static int read(ConcurrentHashMap<String, AtomicInteger> map, String refundNo) {
    AtomicInteger n = map.get(refundNo);
    return n == null ? 0 : n.get();
  }
}
