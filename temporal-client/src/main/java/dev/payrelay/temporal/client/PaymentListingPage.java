package dev.payrelay.temporal.client;

import java.util.List;

/**
 * One page of a payment listing; its JSON form is the admin API's answer.
 *
 * @param query the List Filter that was run, to paste into the Temporal UI's query box
 * @param payments at most the requested limit of rows, in the visibility store's order (most
 *     recently closed or started first)
 * @param nextPageToken pass it back for the next page; null on the last page
 */
public record PaymentListingPage(
    String query, List<PaymentListingRow> payments, String nextPageToken) {

  /** A page holding an immutable copy of {@code payments}. */
  public PaymentListingPage {
    payments = List.copyOf(payments);
  }
}
