package dev.payrelay.app.config.mapping;

import dev.payrelay.app.config.Profile;
import dev.payrelay.app.config.binder.ByteSize;
import dev.payrelay.app.config.binder.Doc;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * payrelay's settings, each declared once: its name ({@code payrelay.<group>.<name>} in the file,
 * {@code PAYRELAY_<GROUP>_<NAME>} in the environment), its type, its {@code @WithDefault} and its
 * {@link Doc} (description, bounds, masking). SmallRye Config binds it ({@code
 * dev.payrelay.app.config.binder.Binder}); {@code PayrelayConfig} assembles the records the code
 * uses from it; {@code docs/configuration-reference.md} is generated from it.
 *
 * <p>The groups are in the files beside this one: {@link StoreMapping} (database, broker), {@link
 * TemporalMapping}, {@link AccessMapping} (API, admin, codec, signal tokens), {@link JobsMapping}
 * (dispatcher, outbox, inbox, queries, safety nets, consumers), {@link OperationsMapping} and
 * {@link ChannelMapping}.
 */
@ConfigMapping(prefix = "payrelay")
public interface PayrelayMapping {

  /** The database. */
  StoreMapping.Db db();

  /** The broker. */
  StoreMapping.Amqp amqp();

  /** Temporal: payrelay's overrides of Temporal's own client configuration, the local server. */
  TemporalMapping temporal();

  /** Temporal payload encryption. */
  TemporalMapping.Payload payload();

  /** The HTTP API. */
  AccessMapping.Api api();

  /** The admin listener and how the CLI reaches it. */
  AccessMapping.Admin admin();

  /** The codec endpoint the Temporal UI decodes payloads with. */
  AccessMapping.Codec codec();

  /** Signal tokens for operator signals sent outside the admin API. */
  AccessMapping.SignalToken signalToken();

  /** The outbox dispatcher. */
  JobsMapping.Dispatch dispatch();

  /** The outbox's housekeeping. */
  JobsMapping.Outbox outbox();

  /** The webhook inbox's retention. */
  JobsMapping.Inbox inbox();

  /** When a payment's workflow asks the channel about an unconfirmed payment. */
  JobsMapping.Query query();

  /** The expiry sweep. */
  JobsMapping.Expiry expiry();

  /** The grant repair. */
  JobsMapping.Grant grant();

  /** The worker's event consumers. */
  JobsMapping.Consumer consumer();

  /** What refunds do beyond the money. */
  JobsMapping.Refund refund();

  /** The worker's metrics and health listener. */
  OperationsMapping.WorkerMetrics workerMetrics();

  /** Logging. */
  OperationsMapping.Log log();

  /** The sandbox test channel. */
  ChannelMapping.Sandbox sandbox();

  /** The Stripe channel. */
  ChannelMapping.Stripe stripe();

  /** The Alipay channel. */
  ChannelMapping.Alipay alipay();

  /** The WeChat Pay APIv3 channel. */
  ChannelMapping.Wechatpay wechatpay();

  /** See {@link Doc}. */
  @Doc(
      value =
          "dev, test or prod. prod: api, worker and sandbox always run in production mode, which"
              + " refuses well-known and missing credentials and exposed listeners; dev and test:"
              + " never (a local stack, the tests). Unset: production mode whenever a Temporal"
              + " address is set. Also picks the file's %dev, %test or %prod section. payrelay dev"
              + " is never in production mode.",
      byDefault = "unset")
  Optional<Profile> profile();

  /** See {@link Doc}. */
  @Doc(
      "Where payrelay dev keeps its state (owner-only): the local Temporal server's temporal.db"
          + " (SQLite; workflows survive a restart) and temporal.log, dev's API key, soak runs.")
  @WithDefault(".payrelay")
  Path dataDir();

  /** See {@link Doc}. */
  @Doc(
      "<point>[:<nth>]: halt the process at that crash point's n-th passage, for crash tests and"
          + " drills (dev.payrelay.domain.crash.CrashPoint names them); unset in production.")
  Optional<String> crashAt();

  /** See {@link Doc}. */
  @Doc(
      value = "How channels reach the API: the base of webhook and pay page URLs.",
      byDefault = "http://<PAYRELAY_API_HOST>:<PAYRELAY_API_PORT>")
  Optional<URI> publicUrl();

  /** See {@link Doc}. */
  @Doc(
      "A JSON file of the merchant accounts of tenants that do not use their channel's default"
          + " account (ChannelAccountsFile gives the shape); none when unset.")
  Optional<Path> channelAccountsFile();

  /** See {@link Doc}. */
  @Doc(
      value =
          "Publish retries per event type, comma-separated, * for the rest, e.g."
              + " PaymentConfirmed=1s/30s/20,*=1s/60s/12 (first delay/longest delay/attempts).",
      syntax = "Type=initial/max/attempts,...",
      byDefault = "1s doubling to 60s, 12 attempts")
  Optional<String> publishRetry();

  /** See {@link Doc}. */
  @Doc(
      "Every worker creates (or updates) the Temporal Schedule recon-daily-{channel} per channel;"
          + " hourly it starts yesterday's (UTC) reconciliation unless running or done. On the"
          + " in-memory server, or one without Schedules, an hourly in-process tick does the same."
          + " false: neither; an existing Schedule is left as it is (pause or delete it).")
  @WithDefault("true")
  boolean reconciliationDaily();

  /** See {@link Doc}. */
  @Doc(
      value =
          "Workflows kept in memory between their tasks (Temporal's default); 0 would replay a"
              + " payment's whole history on each of its tasks.",
      min = "1")
  @WithDefault("600")
  int workflowCache();

  /** See {@link Doc}. */
  @Doc(
      value =
          "How long a dependency a process needs (database; for worker and dev also broker and"
              + " Temporal) may fail its readiness checks before /health/ready says 503, and"
              + " before dev stops for a local Temporal server that no longer answers.",
      min = "1s",
      max = "5m")
  @WithDefault("10s")
  Duration readinessGrace();

  /** See {@link Doc}. */
  @Doc(
      value =
          "How long a created payment waits to be paid; at most the longest deadline an"
              + " extension may set (PaymentDeadlines.MAX_EXTENSION).",
      min = "1s",
      max = "366d")
  @WithDefault("30m")
  Duration paymentTtl();

  /** See {@link Doc}. */
  @Doc(
      value = "Larger callbacks are recorded (their first bytes) and refused with 413.",
      max = "1GiB")
  @WithDefault("64KiB")
  ByteSize webhookMaxSize();
}
