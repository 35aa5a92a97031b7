package dev.payrelay.tools.bench;

/**
 * How a benchmark drives its operations: open loop at a fixed rate, or closed loop with a fixed
 * number of callers. Every baseline runs at the same shape as payrelay's callbacks.
 *
 * @param rate operations started per second (open loop), or null
 * @param callers concurrent callers each running operations back to back (closed loop), or null
 */
public record LoadShape(Double rate, Integer callers) {

  /**
   * Validates that exactly one of the two is set and positive.
   *
   * @throws IllegalArgumentException otherwise
   */
  public LoadShape {
    if ((rate == null) == (callers == null)) {
      throw new IllegalArgumentException("give exactly one of --rate and --callers");
    }
    if (rate != null && !(rate > 0)) {
      throw new IllegalArgumentException("--rate must be positive, was " + rate);
    }
    if (callers != null && callers < 1) {
      throw new IllegalArgumentException("--callers must be at least 1, was " + callers);
    }
  }

  /** Whether operations are scheduled at a fixed rate regardless of how long each takes. */
  public boolean openLoop() {
    return rate != null;
  }

  /** {@code open 50.0/s} or {@code closed 16 callers}, for the report. */
  public String describe() {
    return openLoop() ? "open " + rate + "/s" : "closed " + callers + " callers";
  }
}
