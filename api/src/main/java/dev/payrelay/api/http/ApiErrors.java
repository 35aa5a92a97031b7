package dev.payrelay.api.http;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.DatabindException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.javalin.http.Context;
import java.util.Collection;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The API's error bodies: {@code {"code": "...", "error": "..."}}, a stable code for programs and a
 * message for people, never an internal class name (Jackson's own messages name our request
 * classes, so JSON problems are described here instead).
 */
public final class ApiErrors {

  /** The code of a body that is not the JSON the endpoint takes. */
  static final String MALFORMED_JSON = "MALFORMED_JSON";

  /** The code of an unexpected failure; its message names an incident id the log has too. */
  static final String INTERNAL = "INTERNAL";

  private ApiErrors() {}

  /** The body for {@code status} with the code that status stands for. */
  public static Map<String, String> body(int status, String message) {
    return body(code(status), message);
  }

  /** Answers {@code status} with this body: the status's code and {@code message}. */
  public static void answer(Context ctx, int status, String message) {
    ctx.status(status).json(body(status, message));
  }

  /** The body with {@code code} and {@code message}. */
  static Map<String, String> body(String code, String message) {
    return Map.of("code", code, "error", message);
  }

  /** The code of a status, e.g. {@code NOT_FOUND} for 404. */
  static String code(int status) {
    return switch (status) {
      case 400 -> "BAD_REQUEST";
      case 401 -> "UNAUTHORIZED";
      case 403 -> "FORBIDDEN";
      case 404 -> "NOT_FOUND";
      case 408 -> "REQUEST_TIMEOUT";
      case 409 -> "CONFLICT";
      case 413 -> "TOO_LARGE";
      case 422 -> "IDEMPOTENCY_CONFLICT";
      case 502 -> "CHANNEL_UNAVAILABLE";
      case 503 -> "UNAVAILABLE";
      default -> status >= 500 ? INTERNAL : "REFUSED";
    };
  }

  /**
   * What is wrong with a JSON body, in the field names the API documents: {@code unknown field
   * 'amount'}, {@code field 'amountMinor' must be a whole number}, {@code not valid JSON at line 1,
   * column 14}.
   */
  static String describe(JacksonException e) {
    if (e instanceof UnrecognizedPropertyException u) {
      return "unknown field '" + path(u) + "'";
    }
    if (e instanceof MismatchedInputException m && !m.getPath().isEmpty()) {
      return "field '" + path(m) + "' must be " + kind(m.getTargetType());
    }
    if (e instanceof StreamReadException || !(e instanceof DatabindException)) {
      JsonLocation at = e.getLocation();
      return at == null
          ? "not valid JSON"
          : "not valid JSON at line " + at.getLineNr() + ", column " + at.getColumnNr();
    }
    return "the body is not the JSON object this endpoint takes";
  }

  private static String path(JsonMappingException e) {
    String path =
        e.getPath().stream()
            .map(r -> r.getFieldName() != null ? "." + r.getFieldName() : "[" + r.getIndex() + "]")
            .collect(Collectors.joining());
    return path.startsWith(".") ? path.substring(1) : path;
  }

  private static String kind(Class<?> type) {
    if (type == null) {
      return "of another type";
    }
    if (Number.class.isAssignableFrom(type) || type == long.class || type == int.class) {
      return "a whole number";
    }
    if (CharSequence.class.isAssignableFrom(type)) {
      return "a string";
    }
    if (Collection.class.isAssignableFrom(type) || type.isArray()) {
      return "a list";
    }
    if (type == Boolean.class || type == boolean.class) {
      return "true or false";
    }
    return "an object";
  }
}
