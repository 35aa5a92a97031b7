package dev.payrelay.temporal.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.workflows.PaymentWorkflowState;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PaymentListingFilterTest {

  @Test
  void stateTenantAndChannel_becomeOneQuotedClauseEach_afterTheWorkflowType() {
    assertThat(PaymentListingFilter.of("NEEDS_ATTENTION", "t1", "sandbox").query())
        .isEqualTo(
            "WorkflowType = \"PaymentWorkflow\" AND PaymentState = \"NEEDS_ATTENTION\""
                + " AND TenantId = \"t1\" AND Channel = \"sandbox\"");
  }

  @Test
  void missingOrBlankValues_meanAny_andAreLeftOutOfTheQuery() {
    assertThat(PaymentListingFilter.of(null, " ", null).query())
        .isEqualTo("WorkflowType = \"PaymentWorkflow\"");
    assertThat(PaymentListingFilter.of("", null, "sandbox").query())
        .isEqualTo("WorkflowType = \"PaymentWorkflow\" AND Channel = \"sandbox\"");
  }

  @Test
  void stateInAnyLetterCase_isTheEnumName() {
    PaymentListingFilter filter = PaymentListingFilter.of(" fulfilled ", null, null);

    assertThat(filter.state()).isEqualTo(PaymentWorkflowState.FULFILLED);
    assertThat(filter.query()).contains("PaymentState = \"FULFILLED\"");
  }

  @ParameterizedTest
  @ValueSource(strings = {"DONE", "NEEDS ATTENTION", "FULFILLED\" OR WorkflowType = \"x"})
  void unknownState_isRefused_withTheAllowedNames(String state) {
    assertThatThrownBy(() -> PaymentListingFilter.of(state, null, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("state must be one of")
        .hasMessageContaining("NEEDS_ATTENTION");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "t1\" OR WorkflowType=\"x",
        "t1' OR WorkflowType='x",
        "t1\\",
        "t1`",
        "t1\n OR 1=1"
      })
  void tenantThatCouldLeaveItsQuotes_isRefused_neverPutInTheQuery(String tenant) {
    assertThatThrownBy(() -> PaymentListingFilter.of("PAID", tenant, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("tenantId must not contain quotes");
    assertThatThrownBy(() -> new PaymentListingFilter(null, null, tenant))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("channel must not contain quotes");
  }

  @Test
  void valuesLongerThanTheirColumns_areRefused() {
    assertThat(PaymentListingFilter.of(null, "t".repeat(64), "c".repeat(32)).query())
        .contains("t".repeat(64));
    assertThatThrownBy(() -> PaymentListingFilter.of(null, "t".repeat(65), null))
        .hasMessage("tenantId must be 1..64 characters");
    assertThatThrownBy(() -> PaymentListingFilter.of(null, null, "c".repeat(33)))
        .hasMessage("channel must be 1..32 characters");
  }

  @Test
  void bidiControlsAndInvisibleCharacters_inATenantOrChannel_areRefused() {
    for (String bad : new String[] {"t1\u202Ex", "t1\u2066", "t\u200B1", "t1\u2028"}) {
      assertThatThrownBy(() -> PaymentListingFilter.of(null, bad, null))
          .as(bad)
          .hasMessageContaining("tenantId must not contain")
          .hasMessageContaining("control or format characters");
      assertThatThrownBy(() -> PaymentListingFilter.of(null, null, bad))
          .hasMessageContaining("channel must not contain");
    }
  }

  @Test
  void ordinaryIdsWithDotsDashesAndUnicode_areKeptVerbatim() {
    assertThat(PaymentListingFilter.of(null, "acme-eu.prod_2", "sandbox").query())
        .contains("TenantId = \"acme-eu.prod_2\"");
    assertThat(PaymentListingFilter.of(null, "学校", null).tenantId()).isEqualTo("学校");
  }

  @Test
  void paymentIds_becomeOneInClause_andAQuoteInAnIdIsRefused() {
    assertThat(PaymentListingFilter.paymentIdsQuery(List.of("pay_1", "pay_2")))
        .isEqualTo("WorkflowType = \"PaymentWorkflow\" AND PaymentId IN (\"pay_1\", \"pay_2\")");
    assertThatThrownBy(() -> PaymentListingFilter.paymentIdsQuery(List.of("pay_1\") OR (\"x")))
        .hasMessageStartingWith("paymentId must not contain quotes");
    assertThatThrownBy(() -> PaymentListingFilter.paymentIdsQuery(List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
