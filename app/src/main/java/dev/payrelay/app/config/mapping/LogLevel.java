package dev.payrelay.app.config.mapping;

/** {@code PAYRELAY_LOG_LEVEL}: the root logger's level, as logback names its levels. */
public enum LogLevel {
  /** Everything. */
  TRACE,
  /** Diagnostics. */
  DEBUG,
  /** The default: what happened. */
  INFO,
  /** Only what needs a look. */
  WARN,
  /** Only failures. */
  ERROR
}
