package dev.payrelay.api;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.dialect.Dialects;
import dev.payrelay.api.http.OpenApiDocument;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.StringNode;

/**
 * The API's OpenAPI document ({@link OpenApiDocument#RESOURCE}) as a test reads it: parsed by
 * swagger-parser, its routes per listener ({@code x-payrelay-listeners}), and a check of a real
 * answer against the operation, status and media type it documents, its schema (JSON Schema
 * 2020-12, as OpenAPI 3.1 says) validated by networknt's validator with {@code $ref}s resolved
 * within the document.
 */
final class OpenApiContract {

  /** The base IRI the document is registered under, so its {@code #/components/...} resolve. */
  private static final String IRI = "https://payrelay.dev/openapi.json";

  final SwaggerParseResult parsed;
  private final JsonNode tree;
  private final SchemaRegistry schemas;

  private OpenApiContract(SwaggerParseResult parsed, String json) {
    this.parsed = parsed;
    this.tree = JsonMapper.shared().readTree(json);
    this.schemas =
        SchemaRegistry.withDefaultDialect(
            Dialects.getOpenApi31(),
            b ->
                b.schemas(Map.of(IRI, json))
                    .schemaRegistryConfig(
                        SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build()));
  }

  /** Reads and parses the document from the classpath. */
  static OpenApiContract load() throws IOException {
    String yaml;
    try (InputStream in = OpenApiContract.class.getResourceAsStream(OpenApiDocument.RESOURCE)) {
      yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    String json = new YAMLMapper().readTree(yaml).toString();
    return new OpenApiContract(new OpenAPIV3Parser().readContents(yaml, null, null), json);
  }

  OpenAPI api() {
    return parsed.getOpenAPI();
  }

  /** Every {@code METHOD path} documented on {@code listener} ({@code public} or {@code admin}). */
  TreeSet<String> routes(String listener) {
    TreeSet<String> routes = new TreeSet<>();
    api()
        .getPaths()
        .forEach(
            (path, item) -> {
              if (listeners(item).contains(listener)) {
                item.readOperationsMap().keySet().forEach(m -> routes.add(m.name() + " " + path));
              }
            });
    return routes;
  }

  /** The documented operation of {@code METHOD path}, if any. */
  Optional<Operation> operation(String method, String path) {
    PathItem item = api().getPaths().get(path);
    return Optional.ofNullable(item)
        .map(i -> i.readOperationsMap().get(PathItem.HttpMethod.valueOf(method)));
  }

  @SuppressWarnings("unchecked")
  private static List<String> listeners(PathItem item) {
    Object listeners =
        item.getExtensions() == null ? null : item.getExtensions().get("x-payrelay-listeners");
    return listeners == null ? List.of() : (List<String>) listeners;
  }

  /**
   * What is wrong with {@code answer} by the document: no documented route for its method and path,
   * a status the route does not list, a body where none is documented (or for HEAD), or a body its
   * schema refuses; empty when nothing is.
   */
  List<String> problems(HttpResponse<String> answer) {
    String method = answer.request().method();
    String path = answer.request().uri().getPath();
    String route = template(method, path).orElse(null);
    if (route == null) {
      return List.of(method + " " + path + ": no documented route matches");
    }
    String where = method + " " + route + " " + answer.statusCode();
    String pointer = "/paths/" + escape(route) + "/" + method.toLowerCase(Locale.ROOT);
    pointer = resolved(pointer + "/responses/" + answer.statusCode());
    if (tree.at(pointer).isMissingNode()) {
      return List.of(where + ": status not documented; the route lists " + statuses(method, route));
    }
    String type = mediaType(answer);
    if (answer.body().isEmpty() || method.equals("HEAD")) {
      return answer.body().isEmpty() ? List.of() : List.of(where + ": a body for HEAD");
    }
    String schema = pointer + "/content/" + escape(type) + "/schema";
    if (tree.at(schema).isMissingNode()) {
      return List.of(where + ": no " + type + " body documented, got " + answer.body());
    }
    JsonNode body =
        type.endsWith("json")
            ? JsonMapper.shared().readTree(answer.body())
            : StringNode.valueOf(answer.body());
    return validator(schema).validate(body).stream()
        .map(Error::toString)
        .map(e -> where + " " + type + ": " + e + " in " + answer.body())
        .toList();
  }

  /** {@code METHOD template status} of {@code answer}, e.g. {@code GET /v1/payments/{id} 404}. */
  String route(HttpResponse<String> answer) {
    String method = answer.request().method();
    String path = answer.request().uri().getPath();
    return method + " " + template(method, path).orElse(path) + " " + answer.statusCode();
  }

  /** The documented path template {@code path} is an instance of, literal segments first. */
  private Optional<String> template(String method, String path) {
    return api().getPaths().keySet().stream()
        .filter(t -> operation(method, t).isPresent())
        .filter(t -> path.matches(t.replaceAll("\\{[^/}]+}", "[^/]+")))
        .min(Comparator.comparingLong(t -> t.chars().filter(c -> c == '{').count()));
  }

  private List<String> statuses(String method, String route) {
    return new ArrayList<>(operation(method, route).orElseThrow().getResponses().keySet());
  }

  /** {@code pointer}, or where the {@code $ref} found there points within the document. */
  private String resolved(String pointer) {
    JsonNode ref = tree.at(pointer).path("$ref");
    return ref.isString() && ref.asString().startsWith("#/")
        ? ref.asString().substring(1)
        : pointer;
  }

  private Schema validator(String pointer) {
    // The pointer is a URI fragment (RFC 6901 §6): braces of path templates percent-encoded.
    String fragment = pointer.replace("{", "%7B").replace("}", "%7D");
    return schemas.getSchema(SchemaLocation.of(IRI + "#" + fragment));
  }

  private static String mediaType(HttpResponse<String> answer) {
    return answer
        .headers()
        .firstValue("Content-Type")
        .map(t -> t.split(";", 2)[0].strip().toLowerCase(Locale.ROOT))
        .orElse("");
  }

  /** A JSON pointer's reference token (RFC 6901 §3). */
  private static String escape(String token) {
    return token.replace("~", "~0").replace("/", "~1");
  }
}
