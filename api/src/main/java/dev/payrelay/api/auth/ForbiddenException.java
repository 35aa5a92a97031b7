package dev.payrelay.api.auth;

/** A valid API key whose role or tenants do not allow the request: 403. */
public final class ForbiddenException extends RuntimeException {
  ForbiddenException(String message) {
    super(message);
  }
}
