package dev.payrelay.app.config.mapping;

/** {@code PAYRELAY_LOG_FORMAT}: the appender {@code logback.xml} includes. */
public enum LogFormat {
  /** One readable line per event ({@code logback-text.xml}). */
  TEXT,
  /** One JSON object per line, MDC included ({@code logback-json.xml}, logback's JsonEncoder). */
  JSON
}
