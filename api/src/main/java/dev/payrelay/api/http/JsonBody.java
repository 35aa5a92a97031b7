package dev.payrelay.api.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.api.BadRequestException;
import io.javalin.http.Context;
import java.io.IOException;

/** Reads a request's JSON body that an endpoint cannot do without. */
final class JsonBody {

  private JsonBody() {}

  /**
   * The body as {@code type}.
   *
   * @param whatIsRequired the 400's message for a {@code null} body, e.g. {@code a JSON body
   *     {channel, date} is required}
   * @throws BadRequestException for a {@code null} body
   * @throws IOException for a body that is not that JSON (answered 400 {@code MALFORMED_JSON})
   */
  static <T> T required(ObjectMapper mapper, Context ctx, Class<T> type, String whatIsRequired)
      throws IOException {
    T body = mapper.readValue(ctx.body(), type);
    if (body == null) {
      throw new BadRequestException(whatIsRequired);
    }
    return body;
  }
}
