package dev.payrelay.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link UnreadIds}' bookkeeping of gaps below the highest id read. */
class UnreadIdsTest {

  @Test
  void idsSkippedByAHigherOne_stayUnread_untilTakenOnce() {
    UnreadIds ids = new UnreadIds(10, 1_000);

    assertThat(ids.take(14, 0)).isTrue();
    assertThat(ids.condition("id")).isEqualTo("id > ? OR id BETWEEN ? AND ?");
    assertThat(ids.bounds()).containsExactly(14, 11, 13);

    assertThat(ids.take(12, 0)).isTrue();
    assertThat(ids.bounds()).containsExactly(14, 11, 11, 13, 13);
    assertThat(ids.take(12, 0)).isFalse();
    assertThat(ids.take(14, 0)).isFalse();
    assertThat(ids.take(11, 0)).isTrue();
    assertThat(ids.take(13, 0)).isTrue();
    assertThat(ids.gaps()).isZero();
    assertThat(ids.take(15, 0)).isTrue();
  }

  @Test
  void aGap_isGivenUp_afterTheHorizon() {
    UnreadIds ids = new UnreadIds(0, 1_000);
    ids.take(3, 0);
    ids.take(6, 500);

    ids.expire(1_200);

    assertThat(ids.bounds()).containsExactly(6, 4, 5);
    assertThat(ids.take(1, 1_200)).isFalse();
    assertThat(ids.take(5, 1_200)).isTrue();
  }
}
