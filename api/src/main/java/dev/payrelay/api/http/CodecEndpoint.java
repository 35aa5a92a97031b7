package dev.payrelay.api.http;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.payrelay.api.auth.Public;
import dev.payrelay.api.auth.Role;
import io.javalin.http.Context;
import io.temporal.api.common.v1.Payload;
import io.temporal.api.common.v1.Payloads;
import io.temporal.payload.codec.PayloadCodec;
import io.temporal.payload.codec.PayloadCodecException;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Temporal "Codec Server" on the API, so the Temporal Web UI (and {@code temporal} CLI users) can
 * show payrelay's encrypted payloads decoded to operators: {@code POST /v1/codec/decode} and {@code
 * POST /v1/codec/encode}, each taking and answering {@code {"payloads":[...]}}, a {@code
 * temporal.api.common.v1.Payloads} in protobuf's JSON form (metadata values and data base64), per
 * Temporal's Codec Server docs. Point the UI at {@code http://<api>/v1/codec} ({@code temporal
 * server start-dev --ui-codec-endpoint ...}, or the UI's Data Encoder settings).
 *
 * <ul>
 *   <li>200 with the converted payloads; payloads that are not encrypted decode unchanged
 *   <li>400 for a body that is not that JSON, or payloads the codec refuses (unknown key id, failed
 *       GCM authentication: the message names the key id)
 *   <li>401 when the access check refuses the request's {@code Authorization} header for the
 *       operation: {@code decode} asks it for {@link Role#READ}, {@code encode} for {@link
 *       Role#OPERATE} (the UI sends the user's access token there when "pass access token" is on)
 *   <li>403 for a browser request ({@code Origin} header) from an origin not allowed
 * </ul>
 *
 * <p>CORS (Fetch standard): allowed origins get {@code Access-Control-Allow-Origin} with their own
 * origin, credentials allowed, and the headers the UI sends ({@code Content-Type}, {@code
 * X-Namespace}, {@code Authorization}); preflight {@code OPTIONS} answers 204.
 */
public final class CodecEndpoint {

  /** The base path; the UI's codec endpoint is {@code <api base URL>} + this. */
  public static final String PATH = "/v1/codec";

  /** The origins of the local dev server's Web UI at its default port 8233. */
  public static final List<String> LOCAL_UI_ORIGINS = localUiOrigins(8233);

  /**
   * Decides on a request's {@code Authorization} header (null when absent) for one operation:
   * decoding needs {@link Role#READ}; encoding needs {@link Role#OPERATE}, since a payload
   * encrypted with the production key is one a raw signal could carry.
   */
  @FunctionalInterface
  public interface Access {
    /**
     * Whether a request with this {@code Authorization} header value may do what {@code needed}
     * guards: {@link Role#READ} to decode, {@link Role#OPERATE} to encode.
     */
    boolean allows(String authorization, Role needed);

    /** Every request may, both operations: for a listener only operators reach. */
    Access OPEN = (authorization, needed) -> true;
  }

  private static final Logger log = LoggerFactory.getLogger(CodecEndpoint.class);
  private static final String ALLOWED_HEADERS = "Content-Type, X-Namespace, Authorization";

  /**
   * The origins of a local dev server's Web UI ({@code temporal server start-dev --ui-port}): the
   * browser sends {@code http://127.0.0.1:<port>} or {@code http://localhost:<port>} as {@code
   * Origin} (RFC 6454: scheme, host and port), depending on the address the user opened.
   *
   * @param uiPort the UI's port, 1..65535
   */
  public static List<String> localUiOrigins(int uiPort) {
    return List.of("http://127.0.0.1:" + uiPort, "http://localhost:" + uiPort);
  }

  private final PayloadCodec codec;
  private final Set<String> origins;
  private final Access access;

  /**
   * An endpoint over {@code codec}.
   *
   * @param codec the payload codec; null when payloads are not encrypted (both routes then answer
   *     the payloads unchanged)
   * @param allowedOrigins browser origins allowed, e.g. {@code http://localhost:8233}
   * @param access the check of the {@code Authorization} header
   */
  public CodecEndpoint(PayloadCodec codec, Collection<String> allowedOrigins, Access access) {
    this.codec = codec;
    this.origins = Set.copyOf(allowedOrigins);
    this.access = access;
  }

  /** Registers {@code /v1/codec/encode} and {@code /v1/codec/decode} with their preflights. */
  public void register(Routes routes) {
    for (String op : List.of("encode", "decode")) {
      // A preflight carries no credentials (Fetch standard, CORS-preflight request).
      routes.options(PATH + "/" + op, Public.ANYONE, this::preflight);
    }
    routes.post(
        PATH + "/encode",
        Public.CODEC_ACCESS,
        ctx -> convert(ctx, Role.OPERATE, codec == null ? p -> p : codec::encode));
    routes.post(
        PATH + "/decode",
        Public.CODEC_ACCESS,
        ctx -> convert(ctx, Role.READ, codec == null ? p -> p : codec::decode));
  }

  private void preflight(Context ctx) {
    if (cors(ctx)) {
      ctx.header("Access-Control-Allow-Methods", "POST, OPTIONS")
          .header("Access-Control-Allow-Headers", ALLOWED_HEADERS)
          .header("Access-Control-Max-Age", "600")
          .status(204);
    }
  }

  private void convert(Context ctx, Role needed, UnaryOperator<List<Payload>> operation) {
    if (!cors(ctx)) {
      return;
    }
    if (!access.allows(ctx.header("Authorization"), needed)) {
      ApiErrors.answer(
          ctx,
          401,
          ctx.path()
              + " needs an Authorization header allowed to "
              + needed.label()
              + " (an API key for every tenant with that role)");
      return;
    }
    Payloads.Builder in = Payloads.newBuilder();
    try {
      JsonFormat.parser().merge(ctx.body(), in);
    } catch (InvalidProtocolBufferException e) {
      // The parser's message names its own classes (and the Temporal message type): logged only.
      log.debug("codec {}: unparseable body: {}", ctx.path(), e.getMessage());
      ApiErrors.answer(
          ctx,
          400,
          "body must be {\"payloads\":[{\"metadata\":{...},\"data\":\"<base64>\"}]} in"
              + " protobuf JSON, with base64 metadata values and data");
      return;
    }
    try {
      Payloads out =
          Payloads.newBuilder().addAllPayloads(operation.apply(in.getPayloadsList())).build();
      ctx.contentType("application/json").result(JsonFormat.printer().print(out));
    } catch (PayloadCodecException e) {
      log.warn("codec {} refused: {}", ctx.path(), e.getMessage());
      ApiErrors.answer(ctx, 400, e.getMessage());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("payloads cannot be printed as JSON", e);
    }
  }

  /**
   * Sets the CORS headers for an allowed browser origin; answers 403 and returns false for any
   * other origin. Requests without {@code Origin} (not from a browser page) pass.
   */
  private boolean cors(Context ctx) {
    String origin = ctx.header("Origin");
    ctx.header("Vary", "Origin");
    if (origin == null) {
      return true;
    }
    if (!origins.contains(origin)) {
      ApiErrors.answer(ctx, 403, "origin " + origin + " may not use the codec endpoint");
      return false;
    }
    ctx.header("Access-Control-Allow-Origin", origin)
        .header("Access-Control-Allow-Credentials", "true");
    return true;
  }
}
