package dev.payrelay.devstack;

import dev.payrelay.amqp.QueueBinding;
import dev.payrelay.api.http.ApiServer;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.runtime.Services;
import dev.payrelay.app.runtime.WorkerRuntime;
import dev.payrelay.app.temporal.TemporalConnection;
import dev.payrelay.ledger.outbox.ClaimedEvent;
import dev.payrelay.simulators.sandbox.SandboxSimulator;
import dev.payrelay.workflows.WorkflowIds;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What {@code payrelay dev} prints as it starts: a line (or two) per part, in the order the parts
 * start, each led by the part's name padded to eleven characters ({@code database ...}); then a
 * {@code payment} line for each event handed to Temporal. Tests and the docs read these lines: a
 * change to one is a change of dev's interface.
 *
 * @param config dev's configuration, the simulated channels pointed at their simulators
 * @param out where the lines go
 */
record DevStartupLines(PayrelayConfig config, PrintStream out) {

  /** The database, the migrations just applied and the API's and the worker's pools. */
  void database(int migrations, Services api, Services worker) {
    out.printf(
        "database   %s (%d migration(s) applied; pools %s %d, %s %d)%n",
        config.database().jdbcUrl(),
        migrations,
        api.database().poolName(),
        api.database().maxPoolSize(),
        worker.database().poolName(),
        worker.database().maxPoolSize());
  }

  /** Which Temporal dev talks to; for its own dev server, also the Web UI. */
  void temporal(TemporalConnection.Kind kind) {
    PayrelayConfig.TemporalSettings settings = config.temporal();
    switch (kind) {
      case DEV_SERVER ->
          out.printf(
              "temporal   %s (Temporal CLI dev server, data in %s, namespace %s)%n"
                  + "temporal   Web UI %s/namespaces/%s/workflows%n",
              settings.target(),
              settings.local().dataDir().toAbsolutePath().normalize(),
              settings.namespace(),
              settings.local().uiUrl(),
              settings.namespace());
      case IN_MEMORY ->
          out.printf(
              "temporal   %s  !!! IN MEMORY (Java test server): no UI, no listing by state, no"
                  + " Schedules, workflows LOST on restart !!!%n",
              settings.target());
      case EXTERNAL ->
          out.printf(
              "temporal   %s (external, namespace %s)%n", settings.target(), settings.namespace());
    }
    if (kind == TemporalConnection.Kind.DEV_SERVER && settings.local().uiCodecEndpoint() != null) {
      codec(settings.local().uiCodecEndpoint());
    }
  }

  /**
   * Payload encryption is on: the UI shows ciphertext unless it decodes through the API. Its
   * browser sends no payrelay key, so with {@code PAYRELAY_CODEC_AUTH=key} the endpoint refuses it.
   */
  private void codec(java.net.URI endpoint) {
    out.printf(
        "temporal   payload encryption on; the UI decodes through %s%s%n",
        endpoint,
        config.access().codecOpen()
            ? ""
            : " (the UI sends no API key: set PAYRELAY_CODEC_AUTH=open for it to decode)");
  }

  /** The sandbox simulator and the merchants it signs for. */
  void sandbox(SandboxSimulator sandbox) {
    out.printf(
        "sandbox    %s (merchant %s)%n", sandbox.baseUrl(), DevSandbox.merchants(config.sandbox()));
  }

  /** Each active Stripe, Alipay and WeChat Pay channel, marked when it is dev's simulator. */
  void channels(ChannelSimulators simulators) {
    var stripe = config.stripe();
    var alipay = config.alipay();
    var wechat = config.wechatpay();
    if (stripe.active()) {
      channel("stripe", stripe.apiBase(), "account " + stripe.accountId(), simulators.stripe());
    }
    if (alipay.active()) {
      channel("alipay", alipay.gatewayUrl(), "app " + alipay.appId(), simulators.alipay());
    }
    if (wechat.active()) {
      channel("wechatpay", wechat.baseUrl(), "mchid " + wechat.mchId(), simulators.wechatpay());
    }
  }

  /** {@code <name> <url> (<merchant>[, simulator]; webhook <payrelay's webhook for name>)}. */
  private void channel(String name, Object url, String merchant, Optional<?> simulator) {
    out.printf(
        "%-10s %s (%s%s; webhook %s)%n",
        name,
        url,
        merchant,
        simulator.isPresent() ? ", simulator" : "",
        config.api().webhookUrl(name));
  }

  /** The exchange with each bound queue, then each consumer that runs. */
  void broker() {
    for (QueueBinding q : config.amqp().queues()) {
      out.printf(
          "rabbitmq   %s exchange %s, queue %s bound %s%n",
          WorkerRuntime.redact(config.amqp().uri()),
          config.amqp().exchange(),
          q.queue(),
          q.routingKeyPattern());
    }
    for (var consumer : config.consumers().running()) {
      out.printf(
          "consumer   %s on %s bound %s (quarantine %s)%n",
          consumer.name(),
          consumer.queues().work(),
          String.join(",", consumer.bindings()),
          consumer.queues().quarantine());
    }
  }

  /** Where dev's own API key is kept, when no key is configured. */
  void devKey(Path file) {
    out.printf(
        "api key    %s (admin, every tenant, operator dev; the CLI reads it; set"
            + " PAYRELAY_API_KEYS to use your own)%n",
        file.toAbsolutePath().normalize());
  }

  /** The API, its sandbox webhook and, when it has its own port, the admin API. */
  void api(ApiServer api) {
    out.printf(
        "api        http://%s:%d  (webhook %s)%n",
        config.api().host(), api.port(), config.api().webhookUrl("sandbox"));
    if (config.access().adminPort() != null) {
      out.printf("admin api  http://%s:%d%n", config.access().adminHost(), api.adminPort());
    }
  }

  /**
   * An event Temporal accepted: its payment, its type and its workflow, as a Web UI link when dev
   * runs a local server with a UI.
   */
  void payment(ClaimedEvent event) {
    PayrelayConfig.TemporalSettings settings = config.temporal();
    String workflow = WorkflowIds.payment(event.paymentId());
    out.printf(
        "payment    %s %-26s %s%n",
        event.paymentId(),
        event.eventType(),
        settings.isLocal() && !settings.local().inMemory()
            ? settings.local().uiUrl()
                + "/namespaces/"
                + settings.namespace()
                + "/workflows/"
                + workflow
            : workflow);
  }
}
