package dev.payrelay.domain.crash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CrashPointsTest {

  private final List<Integer> halts = new ArrayList<>();

  @Test
  void unset_isNone_andNeverHalts() {
    CrashPoints none = CrashPoints.parse(" ", halts::add);
    for (CrashPoint p : CrashPoint.values()) {
      none.reach(p);
    }
    assertThat(none.armed()).isFalse();
    assertThat(halts).isEmpty();
  }

  @Test
  void haltsOnTheFirstPassage_byDefault_withItsOwnStatus() {
    CrashPoints points = CrashPoints.parse("grant.after-commit", halts::add);
    points.reach(CrashPoint.PUBLISH_AFTER_SENT);
    assertThat(halts).isEmpty();
    points.reach(CrashPoint.GRANT_AFTER_COMMIT);
    assertThat(halts).containsExactly(CrashPoints.HALT_STATUS);
  }

  @Test
  void haltsOnTheNthPassage_only() {
    CrashPoints points = CrashPoints.parse("dispatch.after-claim:3", halts::add);
    points.reach(CrashPoint.DISPATCH_AFTER_CLAIM);
    points.reach(CrashPoint.DISPATCH_AFTER_CLAIM);
    assertThat(halts).isEmpty();
    points.reach(CrashPoint.DISPATCH_AFTER_CLAIM);
    assertThat(halts).hasSize(1);
    points.reach(CrashPoint.DISPATCH_AFTER_CLAIM);
    assertThat(halts).hasSize(1);
    assertThat(points).hasToString("dispatch.after-claim:3");
  }

  @Test
  void everyLabelParsesBackToItsPoint() {
    for (CrashPoint p : CrashPoint.values()) {
      assertThat(CrashPoint.byLabel(p.label())).contains(p);
    }
  }

  @Test
  void unknownPointOrBadCount_isRefused_namingTheKnownPoints() {
    assertThatThrownBy(() -> CrashPoints.parse("grant.after-comit", halts::add))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown crash point 'grant.after-comit'")
        .hasMessageContaining("grant.after-commit");
    assertThatThrownBy(() -> CrashPoints.parse("grant.after-commit:0", halts::add))
        .hasMessageContaining("positive integer");
    assertThatThrownBy(() -> CrashPoints.parse("grant.after-commit:x", halts::add))
        .hasMessageContaining("positive integer, was 'x'");
  }
}
