package dev.payrelay.app.config.mapping;

/** {@code PAYRELAY_CODEC_AUTH}: who the API's codec endpoint decodes payloads for. */
public enum CodecAuth {
  /** Only a request with a valid API key (the Temporal CLI's {@code --codec-auth}). */
  KEY,
  /** Anyone who reaches it: for a Temporal UI without login on a trusted admin listener. */
  OPEN
}
