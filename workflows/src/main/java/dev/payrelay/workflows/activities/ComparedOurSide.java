package dev.payrelay.workflows.activities;

/**
 * What walking our side of a day showed, in counts only (see {@link ComparedPage}).
 *
 * @param statementTransactions the distinct transaction ids on the day's statement
 * @param openItems items for our PAID payments the statement lacks whose repair is not DONE
 */
public record ComparedOurSide(int statementTransactions, int openItems) {}
