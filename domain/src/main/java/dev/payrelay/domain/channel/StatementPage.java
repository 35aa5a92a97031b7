package dev.payrelay.domain.channel;

import java.time.LocalDate;
import java.util.List;

/**
 * One page of a channel's daily statement.
 *
 * @param date the statement day
 * @param lines this page's lines, in the channel's order
 * @param nextPageToken the token of the next page, or null on the last page
 */
public record StatementPage(LocalDate date, List<StatementLine> lines, String nextPageToken) {

  /** Copies the lines. */
  public StatementPage {
    lines = List.copyOf(lines);
  }
}
