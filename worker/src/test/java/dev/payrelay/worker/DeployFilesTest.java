package dev.payrelay.worker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.workflows.PaymentSearchAttributes;
import io.temporal.common.SearchAttributeKey;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * {@code docker-compose.yml} and the {@code Dockerfile} say what payrelay needs to work in
 * containers, read without Docker: the compose file as YAML with its {@code ${VAR:-default}}
 * interpolated as {@code docker compose} does with those variables unset, the Dockerfile line by
 * line.
 */
class DeployFilesTest {

  private static final Path ROOT = Path.of("..");
  private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Z_]+)(?::-([^}]*))?}");
  private static JsonNode services;

  @BeforeAll
  static void read() throws Exception {
    String text = Files.readString(ROOT.resolve("docker-compose.yml"));
    // SnakeYAML resolves the anchors (&payrelay-env, &restart) as compose does.
    Object yaml = new Yaml(new SafeConstructor(new LoaderOptions())).load(interpolate(text));
    services = new ObjectMapper().valueToTree(yaml).path("services");
    assertThat(services.isObject()).as("services in docker-compose.yml").isTrue();
  }

  @Test
  void sandbox_listensOnEveryInterface_atThePortTheOthersCall() {
    JsonNode env = services.path("payrelay-sandbox").path("environment");
    assertThat(env.path("PAYRELAY_SANDBOX_BIND").asText()).isEqualTo("0.0.0.0");
    URI url = URI.create(payrelayEnv("payrelay-api").get("PAYRELAY_SANDBOX_URL"));
    assertThat(url.getHost()).isEqualTo("payrelay-sandbox");
    assertThat(url.getPort()).isEqualTo(env.path("PAYRELAY_SANDBOX_PORT").asInt());
    assertThat(env.path("PAYRELAY_SANDBOX_SECRET").asText())
        .isEqualTo(payrelayEnv("payrelay-api").get("PAYRELAY_SANDBOX_SECRET"));
  }

  @Test
  void everyDatabaseClient_usesMysqlsRootPassword_andItIsWhatPayrelayDevExpects() {
    String root = services.path("mysql").path("environment").path("MYSQL_ROOT_PASSWORD").asText();
    Map<String, String> payrelay = payrelayEnv("payrelay-worker");
    assertThat(payrelay.get("PAYRELAY_DB_USER")).isEqualTo("root");
    assertThat(payrelay.get("PAYRELAY_DB_PASSWORD")).isEqualTo(root);
    JsonNode temporal = services.path("temporal").path("environment");
    assertThat(temporal.path("MYSQL_USER").asText()).isEqualTo("root");
    assertThat(temporal.path("MYSQL_PWD").asText()).isEqualTo(root);
    assertThat(services.path("temporal-schema").path("environment").path("SQL_PASSWORD").asText())
        .isEqualTo(root);
    // `docker compose up -d mysql rabbitmq` serves `payrelay dev` with its defaults.
    assertThat(root).isEqualTo(PayrelayConfig.fromEnv(Map.of()).database().password());
  }

  @Test
  void payrelayServices_restartUnlessStopped_andHaveHealthchecksOnTheirPorts() {
    for (String name : List.of("payrelay-api", "payrelay-worker", "payrelay-sandbox")) {
      JsonNode service = services.path(name);
      assertThat(service.path("restart").asText()).as(name).isEqualTo("unless-stopped");
      assertThat(service.path("healthcheck").path("test").isArray()).as(name).isTrue();
    }
    PayrelayConfig api = PayrelayConfig.fromEnv(payrelayEnv("payrelay-api"));
    assertThat(api.api().host()).isEqualTo("0.0.0.0");
    assertThat(healthcheck("payrelay-api"))
        .contains("http://127.0.0.1:" + api.api().port() + "/health/ready");
    OperationsSettings worker = PayrelayConfig.fromEnv(payrelayEnv("payrelay-worker")).operations();
    assertThat(worker.workerMetricsEnabled()).isTrue();
    assertThat(worker.workerMetricsHost()).isEqualTo("0.0.0.0");
    assertThat(healthcheck("payrelay-worker"))
        .contains("http://127.0.0.1:" + worker.workerMetricsPort() + "/health/ready");
  }

  @Test
  void namespaceInit_waitsAndRetries_andRegistersEverySearchAttributeTheWorkflowsUse()
      throws Exception {
    JsonNode init = services.path("temporal-namespace");
    assertThat(init.path("entrypoint").toString()).contains("/deploy/temporal-namespace.sh");
    String script = Files.readString(ROOT.resolve("deploy/temporal-namespace.sh"));
    assertThat(script).contains("temporal operator cluster health").contains("until ");
    Matcher names = Pattern.compile("for name in ([A-Za-z ]+); do").matcher(script);
    assertThat(names.find()).as("the search attribute loop").isTrue();
    assertThat(List.of(names.group(1).trim().split(" +")))
        .containsExactlyInAnyOrderElementsOf(
            PaymentSearchAttributes.ALL.stream().map(SearchAttributeKey::getName).toList());
    assertThat(init.path("environment").path("NAMESPACE").asText())
        .isEqualTo(payrelayEnv("payrelay-worker").get("PAYRELAY_TEMPORAL_NAMESPACE"));
  }

  @Test
  void image_runsAsNonRootUser_withAnExplicitHeapLimit() throws Exception {
    List<String> lines = Files.readAllLines(ROOT.resolve("Dockerfile"));
    int lastFrom = 0;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).startsWith("FROM ")) {
        lastFrom = i;
      }
    }
    List<String> runtime = lines.subList(lastFrom, lines.size());
    List<String> users = runtime.stream().filter(l -> l.startsWith("USER ")).toList();
    assertThat(users).as("USER in the runtime stage").isNotEmpty();
    String user = users.getLast().substring("USER ".length()).trim().split(":")[0];
    assertThat(user).isNotIn("root", "0");
    assertThat(runtime)
        .anySatisfy(
            l ->
                assertThat(l)
                    .startsWith("ENV JAVA_TOOL_OPTIONS=")
                    .containsPattern("-XX:MaxRAMPercentage=\\d+|-Xmx\\d+"));
  }

  private static String healthcheck(String service) {
    return services.path(service).path("healthcheck").path("test").toString();
  }

  /** A payrelay service's environment as strings (YAML may read some values as numbers). */
  private static Map<String, String> payrelayEnv(String service) {
    Map<String, String> env = new HashMap<>();
    services
        .path(service)
        .path("environment")
        .properties()
        .forEach(e -> env.put(e.getKey(), e.getValue().asText()));
    return env;
  }

  /** {@code ${NAME:-default}} as compose reads it with NAME unset; {@code $$} is a literal $. */
  private static String interpolate(String text) {
    Matcher m = VARIABLE.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(m.group(2) == null ? "" : m.group(2)));
    }
    m.appendTail(out);
    return out.toString().replace("$$", "$");
  }
}
