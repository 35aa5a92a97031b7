package dev.payrelay.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.temporal.worker.WorkerFactoryOptions;
import io.temporal.worker.WorkerOptions;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one sizing rule: every number derives from the pools as {@link Sizing} documents. */
class SizingTest {

  @Test
  void defaults_giveTheApiTenConnections_andTheWorkerSixteen_ofWhichElevenPaymentActivities() {
    PayrelayConfig config = PayrelayConfig.fromEnv(Map.of());
    Sizing s = config.sizing();

    assertThat(config.apiDatabase().maxPoolSize()).isEqualTo(10);
    assertThat(config.apiDatabase().poolName()).isEqualTo("payrelay-api");
    assertThat(config.workerDatabase().maxPoolSize()).isEqualTo(16);
    assertThat(config.workerDatabase().poolName()).isEqualTo("payrelay-worker");
    assertThat(config.database().maxPoolSize()).as("one-shot commands").isEqualTo(10);
    assertThat(s.paymentActivitySlots()).as("16 - 4 background - 1 reconciliation").isEqualTo(11);
    assertThat(s.localActivitySlots()).as("half of 11, rounded up").isEqualTo(6);
    assertThat(s.regularActivitySlots()).isEqualTo(5);
    assertThat(s.publishChannels()).isEqualTo(11);
    assertThat(s.paymentWorkflowTaskSlots()).isEqualTo(11);
    assertThat(s.workflowCache()).isEqualTo(600);
  }

  @Test
  void temporalOptions_carryTheDerivedNumbers() {
    Sizing s = new Sizing(10, 20, 300);

    WorkerOptions payments = s.paymentWorkerOptions();
    assertThat(payments.getMaxConcurrentActivityExecutionSize()).isEqualTo(7);
    assertThat(payments.getMaxConcurrentLocalActivityExecutionSize()).isEqualTo(8);
    assertThat(payments.getMaxConcurrentWorkflowTaskExecutionSize()).isEqualTo(15);
    assertThat(payments.getMaxConcurrentActivityTaskPollers()).isEqualTo(5);
    assertThat(payments.getMaxConcurrentWorkflowTaskPollers()).isEqualTo(5);
    WorkerOptions reconciliation = s.reconciliationWorkerOptions();
    assertThat(reconciliation.getMaxConcurrentActivityExecutionSize()).isEqualTo(1);
    assertThat(reconciliation.getMaxConcurrentActivityTaskPollers()).isEqualTo(1);
    assertThat(reconciliation.getMaxConcurrentWorkflowTaskExecutionSize()).isEqualTo(2);
    assertThat(reconciliation.getMaxConcurrentWorkflowTaskPollers()).isEqualTo(2);
    WorkerFactoryOptions factory = s.factoryOptions();
    assertThat(factory.getWorkflowCacheSize()).isEqualTo(300);
    assertThat(factory.isUsingVirtualWorkflowThreads()).isTrue();
  }

  @Test
  void
      smallestWorkerPool_leavesOneLocalAndOneRegularPaymentActivity_andStillTwoWorkflowTaskPollers() {
    Sizing s =
        PayrelayConfig.fromEnv(Map.of("PAYRELAY_DB_POOL_WORKER", String.valueOf(7))).sizing();

    assertThat(s.paymentActivitySlots()).isEqualTo(2);
    assertThat(s.localActivitySlots()).isEqualTo(1);
    assertThat(s.regularActivitySlots()).isEqualTo(1);
    assertThat(s.publishChannels()).isEqualTo(2);
    assertThat(s.paymentWorkerOptions().getMaxConcurrentActivityTaskPollers()).isEqualTo(1);
    assertThat(s.paymentWorkflowTaskSlots()).isEqualTo(2);
    assertThat(s.paymentWorkerOptions().getMaxConcurrentWorkflowTaskPollers()).isEqualTo(2);
  }

  @Test
  void sharedPoolSetting_isEachPoolsFallback_andEachPoolsOwnSettingWins() {
    PayrelayConfig shared = PayrelayConfig.fromEnv(Map.of("PAYRELAY_DB_POOL", "12"));
    PayrelayConfig split =
        PayrelayConfig.fromEnv(Map.of("PAYRELAY_DB_POOL", "12", "PAYRELAY_DB_POOL_API", "3"));

    assertThat(shared.sizing().apiPool()).isEqualTo(12);
    assertThat(shared.sizing().workerPool()).isEqualTo(12);
    assertThat(split.sizing().apiPool()).isEqualTo(3);
    assertThat(split.sizing().workerPool()).isEqualTo(12);
  }

  @Test
  void outOfRangeSettings_areRefused_namingTheirVariable() {
    assertRefused(
        Map.of("PAYRELAY_DB_POOL_WORKER", "6"), "PAYRELAY_DB_POOL_WORKER", "from 7 to 2052");
    assertRefused(Map.of("PAYRELAY_DB_POOL", "6"), "PAYRELAY_DB_POOL_WORKER", "got: 6");
    assertRefused(Map.of("PAYRELAY_DB_POOL_WORKER", "2053"), "PAYRELAY_DB_POOL_WORKER", "2053");
    assertRefused(Map.of("PAYRELAY_DB_POOL_API", "0"), "PAYRELAY_DB_POOL_API", "got: 0");
    assertRefused(Map.of("PAYRELAY_DB_POOL", "0"), "PAYRELAY_DB_POOL", "at least 1");
    assertRefused(Map.of("PAYRELAY_WORKFLOW_CACHE", "0"), "PAYRELAY_WORKFLOW_CACHE", "got: 0");
    assertRefused(Map.of("PAYRELAY_DB_POOL_API", "ten"), "PAYRELAY_DB_POOL_API", "integer");
  }

  private static void assertRefused(Map<String, String> env, String variable, String detail) {
    assertThatThrownBy(() -> PayrelayConfig.fromEnv(env))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(variable)
        .hasMessageContaining(detail);
  }
}
