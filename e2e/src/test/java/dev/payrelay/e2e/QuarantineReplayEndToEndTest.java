package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;
import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import dev.payrelay.amqp.consume.ConsumerQueues;
import dev.payrelay.amqp.consume.ConsumerSettings;
import dev.payrelay.amqp.consume.ConsumerTopology;
import dev.payrelay.amqp.consume.InboxConsumer;
import dev.payrelay.api.auth.ApiKey;
import dev.payrelay.api.auth.ApiKeys;
import dev.payrelay.api.auth.Role;
import dev.payrelay.api.http.ApiServer;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.runtime.ApiRuntime;
import dev.payrelay.app.runtime.Services;
import dev.payrelay.cli.AdminClient;
import dev.payrelay.ledger.db.generated.tables.records.OperatorActionRecord;
import dev.payrelay.ledger.testing.TestDatabase;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Listing and replaying a consumer's quarantine queue through payrelay's admin API and CLI, on the
 * real MariaDB and RabbitMQ: the audit rows name the key's operator, and the refusals (role,
 * tenants, body, consumer, broker) are answered with their status and exit code.
 */
class QuarantineReplayEndToEndTest {

  private static final ApiKeys.Issued ADMIN =
      ApiKeys.issue(Role.ADMIN, "olga", Set.of(ApiKey.ALL_TENANTS));
  private static final ApiKeys.Issued READER =
      ApiKeys.issue(Role.READ, "rita", Set.of(ApiKey.ALL_TENANTS));
  private static final ApiKeys.Issued ONE_TENANT = ApiKeys.issue(Role.ADMIN, "tom", Set.of("t1"));

  private static final String SUFFIX = UUID.randomUUID().toString().substring(0, 8);
  private static final String EXCHANGE = "payrelay.test-quarantine." + SUFFIX;
  private static final HttpClient http = HttpClient.newHttpClient();

  private static TestDatabase db;
  private static Services services;
  private static ApiServer api;
  private static Connection rabbit;
  private static Map<String, String> env;

  @BeforeAll
  static void start() throws Exception {
    db = TestDatabase.create(QuarantineReplayEndToEndTest.class);
    env = new HashMap<>();
    env.put("PAYRELAY_DB_URL", db.config().jdbcUrl());
    env.put("PAYRELAY_DB_USER", db.config().user());
    env.put("PAYRELAY_DB_PASSWORD", db.config().password());
    env.put("PAYRELAY_API_PORT", "0");
    PayrelayConfig config = PayrelayConfig.fromEnv(env);
    services =
        Services.open(config.apiDatabase(), new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    // No Temporal: nothing here signals a workflow.
    api =
        new ApiRuntime(
                config,
                services,
                ApiKeys.of(List.of(ADMIN.key(), READER.key(), ONE_TENANT.key())),
                null,
                () -> {})
            .start();
    env.put("PAYRELAY_ADMIN_URL", "http://127.0.0.1:" + api.adminPort());
    env.put("PAYRELAY_API_KEY", ADMIN.token());
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(config.amqp().uri());
    rabbit = factory.newConnection("payrelay-test-quarantine-" + SUFFIX);
  }

  @AfterAll
  static void stop() throws Exception {
    try (Channel channel = rabbit.createChannel()) {
      for (String base : List.of("cli", "refused")) {
        ConsumerQueues q = new ConsumerQueues(base + "-" + SUFFIX);
        channel.queueDelete(q.work());
        channel.queueDelete(q.retry(1));
        channel.queueDelete(q.quarantine());
      }
      channel.exchangeDelete(EXCHANGE);
    }
    rabbit.close();
    api.close();
    services.close();
    db.close();
  }

  /** A consumer's queues as the consumer kit declares them, with {@code ids} quarantined. */
  private static ConsumerQueues consumerWith(String base, String... ids) throws Exception {
    ConsumerSettings settings =
        new ConsumerSettings(
            base + "-" + SUFFIX, List.of("payment.#"), 1, 1, List.of(Duration.ofSeconds(1)), 10);
    new ConsumerTopology(EXCHANGE, settings).declare(rabbit);
    try (Channel channel = rabbit.createChannel()) {
      channel.confirmSelect();
      for (String id : ids) {
        Map<String, Object> headers = new HashMap<>();
        headers.put(InboxConsumer.REASON_HEADER, "POISON");
        headers.put(InboxConsumer.DETAIL_HEADER, "unknown course c9");
        headers.put(InboxConsumer.CONSUMER_HEADER, settings.name());
        headers.put(InboxConsumer.QUARANTINED_AT_HEADER, "2026-11-30T21:00:00Z");
        headers.put(InboxConsumer.ATTEMPT_HEADER, 1);
        headers.put(InboxConsumer.ROUTING_KEY_HEADER, "payment.confirmed");
        channel.basicPublish(
            "",
            settings.queues().quarantine(),
            true,
            new AMQP.BasicProperties.Builder()
                .messageId(id)
                .type("PaymentConfirmed")
                .deliveryMode(2)
                .headers(headers)
                .build(),
            ("{\"eventId\":\"" + id + "\"}").getBytes(StandardCharsets.UTF_8));
      }
      channel.waitForConfirmsOrDie(5_000);
    }
    return settings.queues();
  }

  private static CliRun cli(String token, String... args) {
    Map<String, String> as = new HashMap<>(env);
    as.put("PAYRELAY_API_KEY", token);
    return CliRun.of(as, args);
  }

  private static HttpResponse<String> send(
      ApiServer server, String method, String path, String body, String token) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.adminPort() + path))
            .timeout(Duration.ofSeconds(30))
            .header("Authorization", "Bearer " + token)
            .header("Content-Type", "application/json")
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static List<OperatorActionRecord> auditOf(String consumer) {
    return services
        .database()
        .dsl()
        .selectFrom(OPERATOR_ACTION)
        .where(OPERATOR_ACTION.TARGET_ID.startsWith(consumer + "/"))
        .orderBy(OPERATOR_ACTION.ID)
        .fetch();
  }

  @Test
  void cliListsAndReplays_throughTheAdminApi_auditingEachEventWithTheKeysOperator()
      throws Exception {
    ConsumerQueues queues = consumerWith("cli", "e1", "e2", "e3");
    String consumer = queues.consumer();

    HttpResponse<String> listed =
        send(
            api,
            "GET",
            "/v1/admin/consumers/" + consumer + "/quarantine?limit=2",
            null,
            READER.token());
    CliRun list = cli(READER.token(), "consumers", "quarantine", "list", consumer);
    CliRun replay =
        cli(
            ADMIN.token(),
            "consumers",
            "quarantine",
            "replay",
            consumer,
            "--event-id",
            "e2",
            "--event-id",
            "nope",
            "--reason",
            "course c9 now exists");

    assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
    assertThat(listed.body())
        .contains("\"depth\":3", "\"eventId\":\"e1\"", "\"reason\":\"POISON\"")
        .contains("\"routingKey\":\"payment.confirmed\"", "\"detail\":\"unknown course c9\"");
    assertThat(list.exit()).as(list.err()).isEqualTo(AdminClient.OK);
    assertThat(list.out()).contains("e1", "e2", "e3", "3 shown of 3 in " + queues.quarantine());
    assertThat(replay.exit()).as(replay.err()).isEqualTo(AdminClient.REFUSED);
    assertThat(replay.out())
        .contains(
            " event e2 by olga: REPLAYED", consumer + " entry - event nope by olga: NOT_FOUND")
        .contains("1 replayed, 0 skipped, 1 not found");
    assertThat(auditOf(consumer))
        .extracting(
            OperatorActionRecord::getOperatorName,
            OperatorActionRecord::getAction,
            OperatorActionRecord::getTargetType,
            OperatorActionRecord::getTargetId,
            OperatorActionRecord::getReason,
            OperatorActionRecord::getResult)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "olga",
                "QUARANTINE_REPLAY",
                "CONSUMER_EVENT",
                consumer + "/e2",
                "course c9 now exists",
                "REPLAYED"),
            org.assertj.core.groups.Tuple.tuple(
                "olga",
                "QUARANTINE_REPLAY",
                "CONSUMER_EVENT",
                consumer + "/nope",
                "course c9 now exists",
                "NOT_FOUND"));
    try (Channel channel = rabbit.createChannel()) {
      GetResponse moved = channel.basicGet(queues.work(), true);
      assertThat(moved.getProps().getMessageId()).isEqualTo("e2");
      assertThat(moved.getProps().getHeaders()).doesNotContainKey(InboxConsumer.REASON_HEADER);
      assertThat(channel.queueDeclarePassive(queues.quarantine()).getMessageCount()).isEqualTo(2);
    }

    CliRun all =
        cli(
            ADMIN.token(),
            "consumers",
            "quarantine",
            "replay",
            consumer,
            "--all",
            "--reason",
            "drain",
            "--json");

    assertThat(all.exit()).as(all.err()).isEqualTo(AdminClient.OK);
    assertThat(all.out()).contains("\"eventId\" : \"e1\"", "\"eventId\" : \"e3\"");
    assertThat(auditOf(consumer)).hasSize(4);
  }

  @Test
  void refusals_areAnsweredWithTheirStatus_andMoveOrAuditNothing() throws Exception {
    ConsumerQueues queues = consumerWith("refused", "r1");
    String consumer = queues.consumer();
    String replay = "/v1/admin/consumers/" + consumer + "/quarantine/replay";
    String body = "{\"reason\":\"r\",\"eventIds\":[\"r1\"]}";

    HttpResponse<String> reader = send(api, "POST", replay, body, READER.token());
    HttpResponse<String> oneTenant = send(api, "POST", replay, body, ONE_TENANT.token());
    HttpResponse<String> noReason =
        send(api, "POST", replay, "{\"eventIds\":[\"r1\"]}", ADMIN.token());
    HttpResponse<String> both =
        send(
            api,
            "POST",
            replay,
            "{\"reason\":\"r\",\"eventIds\":[\"r1\"],\"all\":true}",
            ADMIN.token());
    HttpResponse<String> unknown =
        send(
            api,
            "GET",
            "/v1/admin/consumers/absent-" + SUFFIX + "/quarantine",
            null,
            READER.token());
    CliRun readerCli =
        cli(
            READER.token(),
            "consumers",
            "quarantine",
            "replay",
            consumer,
            "--all",
            "--reason",
            "r");
    CliRun unknownCli = cli(READER.token(), "consumers", "quarantine", "list", "absent-" + SUFFIX);

    assertThat(reader.statusCode()).isEqualTo(403);
    assertThat(reader.body()).contains("this needs admin");
    assertThat(oneTenant.statusCode()).isEqualTo(403);
    assertThat(oneTenant.body()).contains("tenants '*'");
    assertThat(noReason.statusCode()).isEqualTo(400);
    assertThat(noReason.body()).contains("reason is required");
    assertThat(both.statusCode()).isEqualTo(400);
    assertThat(both.body()).contains("give one of eventIds");
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(unknown.body()).contains("no consumer absent-" + SUFFIX);
    assertThat(readerCli.exit()).isEqualTo(AdminClient.NOT_ALLOWED);
    assertThat(unknownCli.exit()).isEqualTo(AdminClient.REFUSED);
    assertThat(auditOf(consumer)).isEmpty();
    try (Channel channel = rabbit.createChannel()) {
      assertThat(channel.queueDeclarePassive(queues.quarantine()).getMessageCount()).isEqualTo(1);
      assertThat(channel.queueDeclarePassive(queues.work()).getMessageCount()).isZero();
    }
  }

  @Test
  void brokerUnreachable_is503WithRetryAfter() throws Exception {
    Map<String, String> down = new HashMap<>(env);
    down.put("PAYRELAY_AMQP_URI", "amqp://guest:guest@127.0.0.1:9/%2f");
    ApiServer cut =
        new ApiRuntime(
                PayrelayConfig.fromEnv(down),
                services,
                ApiKeys.of(List.of(READER.key())),
                null,
                () -> {})
            .start();
    try {
      HttpResponse<String> r =
          send(cut, "GET", "/v1/admin/consumers/any/quarantine", null, READER.token());

      assertThat(r.statusCode()).as(r.body()).isEqualTo(503);
      assertThat(r.headers().firstValue("Retry-After")).contains("5");
      assertThat(r.body()).contains("RabbitMQ cannot serve this now");
    } finally {
      cut.close();
    }
  }
}
