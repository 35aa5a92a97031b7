package dev.payrelay.api.health;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/**
 * What readiness last learned of one dependency.
 *
 * @param up whether its last check answered
 * @param since when it entered this state: its first answer after failing, or its first failure
 *     after answering (the start of readiness while it never answered); UTC
 * @param error the last failure's own text, e.g. {@code StatusRuntimeException: UNAVAILABLE: io
 *     exception; caused by ConnectException: Connection refused}; null while up
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DependencyState(boolean up, Instant since, String error) {}
