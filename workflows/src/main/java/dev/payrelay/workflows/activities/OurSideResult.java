package dev.payrelay.workflows.activities;

import java.util.List;

/**
 * What walking our side of a day showed.
 *
 * @param statementTransactions the distinct transaction ids on the day's statement
 * @param openItemIds items for our PAID payments the statement lacks whose repair is not DONE
 */
public record OurSideResult(int statementTransactions, List<Long> openItemIds) {

  /** Copies the ids. */
  public OurSideResult {
    openItemIds = List.copyOf(openItemIds);
  }
}
