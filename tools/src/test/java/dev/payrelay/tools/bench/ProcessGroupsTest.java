package dev.payrelay.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link ProcessGroups}: a process that exits during the window is named, not silently lost. */
class ProcessGroupsTest {

  @Test
  void aProcessGoneByTheEnd_isLeftOutOfTheFigures_andNamedAsExited() throws Exception {
    Process child = new ProcessBuilder("sleep", "60").start();
    long self = ProcessHandle.current().pid();
    try {
      ProcessGroups groups =
          new ProcessGroups(
              List.of(child.pid(), self), List.of(), new ProcessGroups.Ports(0, 0, 0, 0));
      groups.start();
      child.destroyForcibly();
      assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();

      BenchResult.ProcessFigures payrelay = groups.finish(10).getFirst();

      assertThat(payrelay.name()).isEqualTo("payrelay");
      assertThat(payrelay.pids()).containsExactly(self);
      assertThat(payrelay.exited()).containsExactly(child.pid());
      assertThat(payrelay.each())
          .extracting(BenchResult.ProcessFigures.One::pid)
          .containsExactly(self);
    } finally {
      child.destroyForcibly();
    }
  }

  @Test
  void processesAliveAtBothEnds_exitNone() {
    long self = ProcessHandle.current().pid();
    ProcessGroups groups =
        new ProcessGroups(List.of(self), List.of(), new ProcessGroups.Ports(0, 0, 0, 0));
    groups.start();

    assertThat(groups.finish(1))
        .allSatisfy(figures -> assertThat(figures.exited()).isEmpty())
        .first()
        .satisfies(figures -> assertThat(figures.pids()).containsExactly(self));
  }
}
