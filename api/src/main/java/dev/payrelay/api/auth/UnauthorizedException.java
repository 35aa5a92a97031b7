package dev.payrelay.api.auth;

/** No API key, or one payrelay does not accept: 401 with {@code WWW-Authenticate: Bearer}. */
public final class UnauthorizedException extends RuntimeException {
  UnauthorizedException(String message) {
    super(message);
  }
}
