package dev.payrelay.worker;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code payrelay demo}: the main job end to end, printing the trail. */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = {
      "Run the main job once on a real signed callback and print its trail.",
      "Creates a payment, has the sandbox pay it, then shows: payment PAID, events SENT with their ids,",
      "the message read from a queue bound to the exchange, the granted entitlements.",
      "Uses a running 'payrelay dev' when its API answers, else starts one in this process.",
      "Exits 0 only when the whole trail was seen."
    })
final class DemoCommand implements Callable<Integer> {

  @Option(
      names = "--timeout-seconds",
      defaultValue = "30",
      description = "How long to wait for the trail (default ${DEFAULT-VALUE}).")
  int timeoutSeconds;

  @Override
  public Integer call() throws Exception {
    PayrelayConfig config = PayrelayCommand.config();
    Preflight.check(config);
    URI api = URI.create("http://" + config.api().host() + ":" + config.api().port());
    DevStack stack = null;
    if (!answers(api.resolve("/health"))) {
      System.out.println("no payrelay at " + api + "; starting one in this process");
      stack = DevStack.start(config, System.out);
    }
    try {
      // Read again: a dev started here has just written its API key.
      boolean ok =
          new Demo(PayrelayCommand.config(), api, System.out)
              .run(Duration.ofSeconds(timeoutSeconds));
      return ok ? 0 : 1;
    } finally {
      if (stack != null) {
        stack.close();
      }
    }
  }

  private static boolean answers(URI health) {
    try {
      HttpResponse<Void> r =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(2)).GET().build(),
                  HttpResponse.BodyHandlers.discarding());
      return r.statusCode() == 200;
    } catch (Exception e) {
      return false;
    }
  }
}
