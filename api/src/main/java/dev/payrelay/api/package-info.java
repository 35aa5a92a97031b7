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
 *
 * <p>{@link dev.payrelay.api.ApiKeys}, {@link dev.payrelay.api.HttpLimits} and {@link
 * dev.payrelay.api.CodecEndpoint} belong to {@code auth}, {@code http} and {@code codec}; they stay
 * here until the configuration in {@code app/config}, which names them and is being rewritten, has
 * landed.
 */
package dev.payrelay.api;
