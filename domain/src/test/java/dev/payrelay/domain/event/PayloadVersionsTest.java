package dev.payrelay.domain.event;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class PayloadVersionsTest {

  @Test
  void unknown_namesTheEvent_itsType_andTheVersionsThisBuildReads() {
    assertThat(PayloadVersions.unknown("evt_7", "PaymentConfirmed", 0, Set.of(2, 1)))
        .isEqualTo(
            "event evt_7 (PaymentConfirmed) has payload version 0; this build reads"
                + " PaymentConfirmed payload versions 1, 2");
  }
}
