package dev.payrelay.api.auth;

import dev.payrelay.api.http.CodecEndpoint;

/**
 * Why a route takes no API key. Each constant is a reviewed exception to "every route needs a key";
 * a new public route adds itself to the list that {@code RouteAccessTest} expects.
 */
public enum Public implements RouteAccess {
  /** Anyone, with nothing to protect: health probes, {@code /metrics}, CORS preflights. */
  ANYONE,
  /** Verified by the channel's signature instead of a key: the channel callbacks. */
  CHANNEL_SIGNATURE,
  /** Checked by the codec endpoint's own {@link CodecEndpoint.Access}, per operation. */
  CODEC_ACCESS
}
