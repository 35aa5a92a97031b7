package dev.payrelay.simulators.sandbox;

import dev.payrelay.channels.sandbox.SandboxHttp;
import io.javalin.http.Context;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * The simulator's memory of {@code Idempotency-Key}s: every key it saw, per payment (or statement
 * date), for tests to inspect; and, for operations that change state (register, close), the first
 * 2xx answer per key, replayed when the same operation arrives again with the same key and the same
 * request body.
 *
 * <p>A replay carries header {@value #REPLAYED}: {@code true} (as Stripe does). The same key with a
 * different body is not a replay: it is processed on its own merits, so conflicting registration
 * terms still answer 409. Refusals are not remembered, so a retry after one is judged afresh.
 */
public final class IdempotencyLog {

  /** The response header marking a replayed answer. */
  static final String REPLAYED = "Idempotent-Replayed";

  /** A complete JSON answer. */
  public record Answer(int status, byte[] body) {}

  private record Stored(byte[] request, Answer answer) {}

  private final ConcurrentHashMap<String, List<String>> seen = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Stored> answers = new ConcurrentHashMap<>();

  /** The scope statement calls for {@code date} are recorded under. */
  public static String statementScope(LocalDate date) {
    return "statement:" + date;
  }

  /** Records the request's key (if it has one) under {@code scope}. */
  public void record(String scope, Context ctx) {
    String key = ctx.header(SandboxHttp.IDEMPOTENCY_KEY);
    if (key != null) {
      seen.computeIfAbsent(scope, s -> new CopyOnWriteArrayList<>()).add(key);
    }
  }

  /** The keys seen under {@code scope}, in arrival order, repeats included. */
  public List<String> seen(String scope) {
    return List.copyOf(seen.getOrDefault(scope, List.of()));
  }

  /**
   * Records the key, then answers with the stored answer of the same operation, key and body, or
   * else runs {@code operation} and stores its answer under the key. Exceptions from the operation
   * propagate (the simulator turns them into error answers) and store nothing.
   *
   * @param operation e.g. {@code register} or {@code close}, so one key cannot replay another
   *     operation's answer
   */
  public void serve(
      Context ctx, String operation, String scope, byte[] request, Supplier<Answer> perform) {
    record(scope, ctx);
    String key = ctx.header(SandboxHttp.IDEMPOTENCY_KEY);
    String slot = operation + " " + scope + " " + key;
    Stored stored = key == null ? null : answers.get(slot);
    Answer answer;
    if (stored != null && Arrays.equals(stored.request(), request)) {
      ctx.header(REPLAYED, "true");
      answer = stored.answer();
    } else {
      answer = perform.get();
      if (key != null && answer.status() / 100 == 2) {
        answers.putIfAbsent(slot, new Stored(request.clone(), answer));
      }
    }
    ctx.status(answer.status()).contentType("application/json").result(answer.body());
  }
}
