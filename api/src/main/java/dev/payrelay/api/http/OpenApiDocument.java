package dev.payrelay.api.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.payrelay.api.auth.Public;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * The API's contract, the hand-written OpenAPI 3.1 document {@value #RESOURCE}, served as written
 * at {@value #YAML_PATH} ({@code application/yaml}, RFC 9512) and as JSON at {@value #JSON_PATH}
 * (converted once when loaded). Both are {@link Public#ANYONE} on every listener: the document
 * holds no secret, and {@code OpenApiContractTest} keeps it equal to the routes registered.
 */
public final class OpenApiDocument {

  /** The document's classpath resource. */
  public static final String RESOURCE = "/openapi/payrelay.yaml";

  /** Where the document is served as written. */
  public static final String YAML_PATH = "/openapi.yaml";

  /** Where the document is served as JSON. */
  public static final String JSON_PATH = "/openapi.json";

  private final byte[] yaml;
  private final byte[] json;

  private OpenApiDocument(byte[] yaml, byte[] json) {
    this.yaml = yaml;
    this.json = json;
  }

  /**
   * Reads {@value #RESOURCE} and converts it to JSON.
   *
   * @throws IllegalStateException when the resource is missing from the classpath
   * @throws UncheckedIOException when it cannot be read or is not YAML
   */
  static OpenApiDocument load() {
    try (InputStream in = OpenApiDocument.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is not on the classpath");
      }
      byte[] yaml = in.readAllBytes();
      JsonNode tree = new YAMLMapper().readTree(yaml);
      return new OpenApiDocument(yaml, new ObjectMapper().writeValueAsBytes(tree));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
  }

  /** Registers {@value #YAML_PATH} and {@value #JSON_PATH} (with their HEAD) on {@code routes}. */
  void register(Routes routes) {
    routes.get(YAML_PATH, Public.ANYONE, ctx -> ctx.contentType("application/yaml").result(yaml));
    routes.get(JSON_PATH, Public.ANYONE, ctx -> ctx.contentType("application/json").result(json));
  }
}
