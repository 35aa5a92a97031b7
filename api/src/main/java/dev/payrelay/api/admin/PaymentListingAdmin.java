package dev.payrelay.api.admin;

import dev.payrelay.api.BadRequestException;
import dev.payrelay.api.ServiceUnavailableException;
import dev.payrelay.temporal.client.PaymentListing;
import dev.payrelay.temporal.client.PaymentListingFilter;
import dev.payrelay.temporal.client.PaymentListingPage;
import dev.payrelay.temporal.client.PaymentListingUnavailableException;

/**
 * Listing payments by workflow state for the admin API and the CLI ({@code payrelay admin
 * payments}): one {@link PaymentListing} query, so both answer what the Temporal UI's query box
 * answers for the same List Filter.
 */
public final class PaymentListingAdmin {

  private final PaymentListing listing;

  /** Lists through {@code listing}. */
  public PaymentListingAdmin(PaymentListing listing) {
    this.listing = listing;
  }

  /**
   * One page of payment workflows matching every given filter (null or blank means any).
   *
   * @param state a PaymentWorkflowState name, e.g. NEEDS_ATTENTION
   * @param tenantId the TenantId search attribute
   * @param channel the Channel search attribute
   * @param orderId the OrderId search attribute (the merchant's order id)
   * @param limit rows per page, 1..1000; null for 100
   * @param pageToken a previous page's {@code nextPageToken}, or null for the first page
   * @throws BadRequestException for an unknown state, a tenant or channel with quotes, backslashes
   *     or control characters, a limit outside 1..1000 or a page token that is not ours
   * @throws ServiceUnavailableException when Temporal is unreachable or cannot list (the in-memory
   *     test server cannot)
   */
  public PaymentListingPage list(
      String state,
      String tenantId,
      String channel,
      String orderId,
      Integer limit,
      String pageToken) {
    try {
      return listing.list(
          PaymentListingFilter.of(state, tenantId, channel, orderId),
          limit == null ? PaymentListing.DEFAULT_LIMIT : limit,
          pageToken);
    } catch (IllegalArgumentException e) {
      throw new BadRequestException(e.getMessage());
    } catch (PaymentListingUnavailableException e) {
      throw new ServiceUnavailableException(e.getMessage(), e);
    }
  }
}
