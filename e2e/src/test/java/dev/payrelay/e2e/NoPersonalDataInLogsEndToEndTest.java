package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.ledger.payment.Notifications;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A payment's whole trail at INFO — created through the API, paid at the sandbox, confirmed,
 * granted, its buyer notified — logs the ids payrelay minted, never the buyer's user id (here an
 * e-mail address) nor what the order buys. Real MariaDB, RabbitMQ and Temporal dev server.
 */
class NoPersonalDataInLogsEndToEndTest {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final ListAppender<ILoggingEvent> LOGS = new ListAppender<>();
  private static PayrelayHarness payrelay;

  @BeforeAll
  static void start() throws Exception {
    Logger root =
        ((LoggerContext) LoggerFactory.getILoggerFactory())
            .getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    LOGS.start();
    root.addAppender(LOGS);
    payrelay =
        new PayrelayHarness(
            NoPersonalDataInLogsEndToEndTest.class,
            Map.of("PAYRELAY_CONSUMER_NOTIFICATIONS", "true"));
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
    ((LoggerContext) LoggerFactory.getILoggerFactory())
        .getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)
        .detachAppender(LOGS);
  }

  @Test
  void aPaymentCreatedPaidAndGranted_logsOurIds_butNeverTheBuyersEmailOrTheCourses()
      throws Exception {
    String email = "alice." + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
    String course = "course-secret-" + UUID.randomUUID().toString().substring(0, 8);
    String body =
        new ObjectMapper()
            .writeValueAsString(
                Map.of(
                    "tenantId",
                    "t1",
                    "orderId",
                    "o-" + UUID.randomUUID(),
                    "userId",
                    email,
                    "amountMinor",
                    1500,
                    "currency",
                    "EUR",
                    "courseIds",
                    List.of(course),
                    "channel",
                    "sandbox"));
    HttpResponse<String> created =
        payrelay.post(
            payrelay.api("/v1/payments"),
            body.getBytes(StandardCharsets.UTF_8),
            Map.of("Content-Type", "application/json"));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String paymentId =
        new ObjectMapper().readTree(created.body()).path("payment").path("paymentId").asText();

    assertThat(payrelay.payAtSandbox(paymentId, "{}").statusCode()).isEqualTo(200);
    await()
        .atMost(WAIT)
        .until(
            () ->
                Notifications.count(
                        payrelay.stack.services().database().dsl(),
                        paymentId,
                        Notifications.COURSES_UNLOCKED)
                    == 1);

    List<String> info =
        LOGS.list.stream()
            .filter(e -> e.getLevel().isGreaterOrEqual(Level.INFO))
            .map(e -> e.getLoggerName() + ": " + e.getFormattedMessage())
            .toList();
    assertThat(info).as("the trail is logged by its ids").anyMatch(l -> l.contains(paymentId));
    assertThat(info).noneMatch(l -> l.contains(email)).noneMatch(l -> l.contains(course));
  }
}
