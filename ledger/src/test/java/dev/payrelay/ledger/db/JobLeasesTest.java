package dev.payrelay.ledger.db;

import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.ledger.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class JobLeasesTest {

  private static TestDatabase db;
  private static JobLeases leases;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(JobLeasesTest.class);
    leases = new JobLeases(db.database().dsl());
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @Test
  void oneOwnerAtATime_renewable_takenOverAfterExpiry_andFreedOnRelease() throws Exception {
    assertThat(leases.tryAcquire("job-a", "w1", Duration.ofMillis(400))).isTrue();
    assertThat(leases.tryAcquire("job-a", "w2", Duration.ofMillis(400))).as("held by w1").isFalse();
    assertThat(leases.tryAcquire("job-a", "w1", Duration.ofMillis(400))).as("renewal").isTrue();
    assertThat(leases.tryAcquire("job-b", "w2", Duration.ofMillis(400))).as("other job").isTrue();

    Thread.sleep(600);
    assertThat(leases.tryAcquire("job-a", "w2", Duration.ofMinutes(1))).as("expired").isTrue();
    assertThat(leases.tryAcquire("job-a", "w1", Duration.ofMinutes(1))).isFalse();

    leases.release("job-a", "w1");
    assertThat(leases.tryAcquire("job-a", "w1", Duration.ofMinutes(1)))
        .as("a non-owner's release changes nothing")
        .isFalse();
    leases.release("job-a", "w2");
    assertThat(leases.tryAcquire("job-a", "w1", Duration.ofMinutes(1))).isTrue();
  }

  @Test
  void cursor_isWrittenOnlyByTheOwner_andSurvivesAnOwnerChange() {
    PageCursor at = new PageCursor(Instant.parse("2026-11-30T10:15:30.123456Z"), "pay_1");
    assertThat(leases.tryAcquire("job-c", "w1", Duration.ofMinutes(1))).isTrue();
    assertThat(leases.saveCursor("job-c", "w1", at.encode())).isTrue();
    assertThat(leases.saveCursor("job-c", "w2", "x|y")).as("not the owner").isFalse();

    assertThat(leases.cursor("job-c").map(PageCursor::decode)).contains(at);
    leases.release("job-c", "w1");
    assertThat(leases.tryAcquire("job-c", "w2", Duration.ofMinutes(1))).isTrue();
    assertThat(leases.cursor("job-c").map(PageCursor::decode)).contains(at);
    assertThat(leases.saveCursor("job-c", "w2", null)).isTrue();
    assertThat(leases.cursor("job-c")).isEmpty();
  }

  @Test
  void pageCursor_roundTripsMicroseconds_andMalformedTextMeansFromTheStart() {
    PageCursor c = new PageCursor(Instant.parse("1999-12-31T23:59:59.999999Z"), "a|b");
    assertThat(PageCursor.decode(c.encode())).isEqualTo(c);
    assertThat(PageCursor.decode(null)).isNull();
    assertThat(PageCursor.decode("garbage")).isNull();
    assertThat(PageCursor.decode("12x|id")).isNull();
  }
}
