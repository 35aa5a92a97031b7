/**
 * The Stripe channel: {@link dev.payrelay.channels.stripe.StripeChannel} (the adapter, through
 * Stripe's official SDK {@code com.stripe:stripe-java}); {@code
 * dev.payrelay.simulators.stripe.StripeSimulator}, in the {@code simulators} module, plays Stripe's
 * API and signed webhooks on a local port.
 *
 * <p>How Stripe's model meets the channel SPI:
 *
 * <ul>
 *   <li>A payment is one PaymentIntent whose {@code metadata.payment_id} is our payment id, created
 *       with idempotency key = our payment id. Stripe chooses the intent id ({@code pi_...}); it is
 *       our channel transaction id in callbacks, queries and statements.
 *   <li>Query and close take only our payment id, so the intent is found with the Search API and
 *       then retrieved. Stripe documents search as lagging writes by up to a minute: a query within
 *       that minute after registration may answer NOT_FOUND.
 *   <li>{@code charge.*} events (refund, dispute) name the PaymentIntent, not our payment: the
 *       adapter retrieves the intent during verification to read our payment id. If that call fails
 *       the callback is rejected as MALFORMED (the SPI has no "try again" reason); Stripe retries
 *       every non-2xx answer, so it comes again.
 *   <li>Events about intents without our metadata, and events about other objects, verify with a
 *       null payment id; their status is UNKNOWN for other objects.
 *   <li>Stripe signs with one secret per webhook endpoint and no key id; a body signed with another
 *       endpoint's secret is a BAD_SIGNATURE.
 * </ul>
 */
package dev.payrelay.channels.stripe;
