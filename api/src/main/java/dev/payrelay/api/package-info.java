/**
 * payrelay's HTTP API: what every part of it shares, the refusals it answers with ({@link
 * dev.payrelay.api.BadRequestException} 400, {@link dev.payrelay.api.NotFoundException} 404, {@link
 * dev.payrelay.api.ConflictException} 409, {@link dev.payrelay.api.ChannelUnavailableException}
 * 502, {@link dev.payrelay.api.ServiceUnavailableException} 503) and the checks of identifiers it
 * receives ({@link dev.payrelay.api.ApiInput}).
 *
 * <p>The parts: {@code http} (the Javalin server and its routes), {@code auth} (API keys, roles,
 * each route's declared access), {@code payment} (creating and reading payments), {@code webhook}
 * (channel callbacks), {@code admin} (operator fixes, listings, reconciliations, quarantine),
 * {@code health} (readiness), {@code codec} (the Temporal payload codec).
 */
package dev.payrelay.api;
