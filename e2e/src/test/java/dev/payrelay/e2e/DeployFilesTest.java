package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payrelay.api.auth.ApiKeys;
import dev.payrelay.api.auth.Role;
import dev.payrelay.app.config.OperationsSettings;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.config.ProductionChecks;
import dev.payrelay.workflows.PaymentSearchAttributes;
import io.temporal.common.SearchAttributeKey;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code docker-compose.yml} and the {@code Dockerfile} say what payrelay needs to work in
 * containers, read without Docker: the compose file as YAML with its {@code ${VAR:-default}}
 * interpolated as {@code docker compose} does with those variables unset, the Dockerfile line by
 * line.
 */
class DeployFilesTest {

  private static final Path ROOT = Path.of("..");
  private static final String PAYRELAY_IMAGE = "payrelay:local";

  /**
   * The image with every command, for the sandbox channel's simulator (Dockerfile's full stage).
   */
  private static final String FULL_IMAGE = "payrelay-full:local";

  private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Z_]+)(?::-([^}]*))?}");
  private static JsonNode services;

  @BeforeAll
  static void read() throws Exception {
    services = compose(Map.of());
    assertThat(services.isObject()).as("services in docker-compose.yml").isTrue();
  }

  /** The compose file's services with the given variables set and every other one unset. */
  private static JsonNode compose(Map<String, String> variables) throws Exception {
    return composeFile(variables).path("services");
  }

  /** The whole compose file, read as {@link #compose} reads it. */
  private static JsonNode composeFile(Map<String, String> variables) throws Exception {
    String text = Files.readString(ROOT.resolve("docker-compose.yml"));
    return YamlFiles.parse(interpolate(text, variables));
  }

  /** A deploy file that is YAML as is (no variables), e.g. {@code prometheus/prometheus.yml}. */
  private static JsonNode deployYaml(String path) throws Exception {
    return YamlFiles.parse(Files.readString(ROOT.resolve("deploy").resolve(path)));
  }

  @Test
  void everyPublishedPort_isOnLoopbackOnly_exceptTheApisPublicPort() {
    int apiPort = PayrelayConfig.fromEnv(payrelayEnv("payrelay-api")).api().port();
    String apiPublic = "payrelay-api " + apiPort + ":" + apiPort;
    List<String> published = new ArrayList<>();
    services
        .properties()
        .forEach(
            service ->
                service
                    .getValue()
                    .path("ports")
                    .forEach(port -> published.add(service.getKey() + " " + port.asText())));
    assertThat(published)
        .as("published ports")
        .contains(
            apiPublic,
            "mysql 127.0.0.1:3306:3306",
            "rabbitmq 127.0.0.1:5672:5672",
            "rabbitmq 127.0.0.1:15672:15672",
            "temporal 127.0.0.1:7233:7233",
            "temporal-ui 127.0.0.1:8233:8080",
            "payrelay-sandbox 127.0.0.1:8090:8090",
            "prometheus 127.0.0.1:9090:9090",
            "grafana 127.0.0.1:3000:3000");
    assertThat(published)
        .filteredOn(p -> !p.equals(apiPublic))
        .allSatisfy(p -> assertThat(p.split(" ")[1]).as(p).startsWith("127.0.0.1:"));
  }

  @Test
  void everyService_namesItsImage_andTheBuiltOnesShareThePayrelayImage() {
    services
        .properties()
        .forEach(
            s -> {
              JsonNode service = s.getValue();
              assertThat(service.path("image").asText()).as(s.getKey()).isNotBlank();
              if (service.has("build")) {
                assertThat(service.path("image").asText())
                    .as(s.getKey())
                    .isEqualTo(s.getKey().equals("payrelay-sandbox") ? FULL_IMAGE : PAYRELAY_IMAGE);
              }
            });
    assertThat(services.properties())
        .filteredOn(s -> s.getValue().has("build"))
        .extracting(Map.Entry::getKey)
        .containsExactlyInAnyOrder(
            "payrelay-migrate", "payrelay-api", "payrelay-worker", "payrelay-sandbox");
  }

  @Test
  void rabbitmq_keepsItsNodeName_andItsDataInANamedVolume() throws Exception {
    JsonNode rabbitmq = services.path("rabbitmq");
    // The node name is rabbit@<host name>, and its data folder in the volume is named after it.
    assertThat(rabbitmq.path("hostname").asText()).isEqualTo("rabbitmq");
    assertThat(rabbitmq.path("volumes").toString()).contains("\"rabbitmq-data:/var/lib/rabbitmq\"");
    assertThat(composeFile(Map.of()).path("volumes").has("rabbitmq-data")).isTrue();
  }

  @Test
  void worker_scales_withoutAFixedOwnerName_containerName_orPublishedPort() throws Exception {
    JsonNode worker = services.path("payrelay-worker");
    // Without --owner each replica's lease owner is its container's host name.
    assertThat(worker.path("command").toString()).doesNotContain("--owner");
    assertThat(worker.has("ports")).as("published ports of payrelay-worker").isFalse();
    assertThat(worker.has("hostname")).isFalse();
    services
        .properties()
        .forEach(s -> assertThat(s.getValue().has("container_name")).as(s.getKey()).isFalse());
    // Prometheus finds every replica by the service's name at the port the workers serve.
    int metricsPort =
        PayrelayConfig.fromEnv(payrelayEnv("payrelay-worker")).operations().workerMetricsPort();
    assertThat(scrapeTarget("payrelay-worker")).isEqualTo("payrelay-worker:" + metricsPort);
    int adminPort = PayrelayConfig.fromEnv(payrelayEnv("payrelay-api")).access().adminPort();
    assertThat(scrapeTarget("payrelay-api")).isEqualTo("payrelay-api:" + adminPort);
  }

  @Test
  void prometheus_loadsTheAlertRules_fromTheMountedDeployFolder() throws Exception {
    JsonNode prometheus = services.path("prometheus");
    assertThat(prometheus.path("volumes").toString())
        .contains("\"./deploy/prometheus:/etc/prometheus:ro\"");
    assertThat(prometheus.path("command").toString())
        .contains("--config.file=/etc/prometheus/prometheus.yml");
    JsonNode rules = deployYaml("prometheus/prometheus.yml").path("rule_files");
    assertThat(rules.toString()).isEqualTo("[\"/etc/prometheus/alerts.yml\"]");
    assertThat(deployYaml("prometheus/alerts.yml").path("groups").path(0).path("rules").size())
        .isPositive();
  }

  @Test
  void grafana_isProvisionedWithPrometheus_andTheDashboard() throws Exception {
    JsonNode grafana = services.path("grafana");
    String mounted = "/etc/grafana/payrelay";
    assertThat(grafana.path("volumes").toString())
        .contains("\"./deploy/grafana:" + mounted + ":ro\"");
    Map<String, String> env = env(grafana);
    assertThat(env).containsEntry("GF_PATHS_PROVISIONING", mounted + "/provisioning");
    assertThat(env)
        .containsEntry(
            "GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH", mounted + "/payrelay-dashboard.json");
    assertThat(ROOT.resolve("deploy/grafana/payrelay-dashboard.json")).isRegularFile();
    JsonNode datasource =
        deployYaml("grafana/provisioning/datasources/prometheus.yml").path("datasources").path(0);
    assertThat(datasource.path("type").asText()).isEqualTo("prometheus");
    assertThat(datasource.path("url").asText()).isEqualTo("http://prometheus:9090");
    assertThat(datasource.path("isDefault").asBoolean()).isTrue();
    assertThat(services.path("prometheus").path("ports").toString()).contains(":9090:9090");
    JsonNode provider =
        deployYaml("grafana/provisioning/dashboards/payrelay.yml").path("providers").path(0);
    assertThat(provider.path("options").path("path").asText()).isEqualTo(mounted);
  }

  /** The {@code host:port} of the DNS discovery of Prometheus's scrape job {@code job}. */
  private static String scrapeTarget(String job) throws Exception {
    for (JsonNode config : deployYaml("prometheus/prometheus.yml").path("scrape_configs")) {
      if (config.path("job_name").asText().equals(job)) {
        JsonNode dns = config.path("dns_sd_configs").path(0);
        assertThat(dns.path("names").size()).as(job).isEqualTo(1);
        return dns.path("names").path(0).asText() + ":" + dns.path("port").asInt();
      }
    }
    throw new AssertionError("no scrape job " + job + " in deploy/prometheus/prometheus.yml");
  }

  @Test
  void api_servesAdminAndMetricsOnItsOwnListener_publishedOnLoopbackOnly() {
    PayrelayConfig api = PayrelayConfig.fromEnv(payrelayEnv("payrelay-api"));
    Integer adminPort = api.access().adminPort();
    assertThat(adminPort).as("PAYRELAY_ADMIN_PORT of payrelay-api").isEqualTo(8082);
    assertThat(adminPort).isNotEqualTo(api.api().port());
    // Inside its container the listener must take connections from the published port.
    assertThat(api.access().adminHost()).isEqualTo("0.0.0.0");
    assertThat(services.path("payrelay-api").path("ports").toString())
        .contains("\"127.0.0.1:" + adminPort + ":" + adminPort + "\"");
    // The merge (<<) kept the shared settings.
    assertThat(payrelayEnv("payrelay-api")).containsAllEntriesOf(payrelayEnv("payrelay-worker"));
    // The CLI in any payrelay container reaches the admin API by the service's name.
    for (String name : List.of("payrelay-migrate", "payrelay-worker", "payrelay-api")) {
      URI admin = PayrelayConfig.fromEnv(payrelayEnv(name)).access().adminUrl();
      assertThat(admin).as(name).isEqualTo(URI.create("http://payrelay-api:" + adminPort));
    }
  }

  @Test
  void databaseUserAndBrokerUri_comeFromVariables_defaultingToTheLocalOnes() throws Exception {
    PayrelayConfig defaults = PayrelayConfig.fromEnv(payrelayEnv("payrelay-worker"));
    assertThat(defaults.database().user()).isEqualTo("root");
    assertThat(defaults.amqp().uri()).isEqualTo("amqp://guest:guest@rabbitmq:5672/%2f");
    String uri = "amqps://relay:s3cret@mq.example:5671/payrelay";
    JsonNode prod =
        compose(
            Map.of(
                "PAYRELAY_DB_USER", "payrelay_app",
                "PAYRELAY_AMQP_URI", uri,
                "PAYRELAY_PROFILE", "prod"));
    for (String name : List.of("payrelay-migrate", "payrelay-api", "payrelay-worker")) {
      assertThat(env(prod.path(name)))
          .as(name)
          .containsEntry("PAYRELAY_DB_USER", "payrelay_app")
          .containsEntry("PAYRELAY_AMQP_URI", uri)
          .containsEntry("PAYRELAY_PROFILE", "prod");
    }
  }

  @Test
  void productionVariables_passEveryProductionRule_ofTheApiAndTheWorker() throws Exception {
    Map<String, String> variables = new HashMap<>();
    variables.put("PAYRELAY_PROFILE", "prod");
    variables.put("PAYRELAY_DB_USER", "payrelay_app");
    variables.put("PAYRELAY_DB_PASSWORD", "db-password");
    variables.put("PAYRELAY_AMQP_URI", "amqps://relay:s3cret@mq.example:5671/payrelay");
    variables.put("PAYRELAY_API_KEYS", ApiKeys.issue(Role.ADMIN, "ops", Set.of("*")).line());
    variables.put("PAYRELAY_PAYLOAD_KEY", ProductionEnv.PAYLOAD_KEY);
    variables.put("PAYRELAY_PAYLOAD_KEY_ID", "2026-12");
    variables.put("PAYRELAY_PUBLIC_URL", "https://payrelay.example.com");
    variables.put("PAYRELAY_SANDBOX_ENABLED", "false");
    variables.put("PAYRELAY_SIGNAL_TOKEN_SECRET", "signal-token-secret-0123456789abcdef");
    JsonNode prod = compose(variables);

    PayrelayConfig api = PayrelayConfig.fromEnv(env(prod.path("payrelay-api")));
    PayrelayConfig worker = PayrelayConfig.fromEnv(env(prod.path("payrelay-worker")));

    assertThat(api.isProduction()).isTrue();
    assertThatCode(() -> ProductionChecks.enforce(api, ProductionChecks.Role.API))
        .doesNotThrowAnyException();
    assertThatCode(() -> ProductionChecks.enforce(worker, ProductionChecks.Role.WORKER))
        .doesNotThrowAnyException();
    // Production runs without the sandbox (--scale payrelay-sandbox=0): nothing waits for it.
    services
        .properties()
        .forEach(
            s ->
                assertThat(s.getValue().path("depends_on").has("payrelay-sandbox"))
                    .as(s.getKey())
                    .isFalse());
  }

  @Test
  void imageBuildContext_leavesOutTheDevKeyAndOtherLocalState() throws Exception {
    List<String> ignored =
        Files.readAllLines(ROOT.resolve(".dockerignore")).stream().map(String::strip).toList();
    // `payrelay dev` keeps its admin API key and Temporal's database in .payrelay/.
    assertThat(ignored).contains(".payrelay/", "**/.payrelay", ".env", "**/target", ".git");
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
            java.util.stream.Stream.concat(
                    PaymentSearchAttributes.ALL.stream(),
                    dev.payrelay.workflows.RefundSearchAttributes.ALL.stream())
                .map(SearchAttributeKey::getName)
                .toList());
    assertThat(init.path("environment").path("NAMESPACE").asText())
        .isEqualTo(payrelayEnv("payrelay-worker").get("PAYRELAY_TEMPORAL_NAMESPACE"));
  }

  @Test
  void image_runsAsNonRootUser_withAnExplicitHeapLimit() throws Exception {
    List<String> lines = Files.readAllLines(ROOT.resolve("Dockerfile"));
    List<String> runtime = lastStageWithItsBases(lines);
    assertThat(runtime)
        .as("the production stage copies the server jar")
        .anySatisfy(l -> assertThat(l).startsWith("COPY ").contains("payrelay-server.jar"));
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

  /**
   * The last stage's lines, preceded by those of the stages it is built {@code FROM} (by {@code AS}
   * name), base first: what the image {@code docker build .} makes inherits.
   */
  private static List<String> lastStageWithItsBases(List<String> lines) {
    Map<String, List<String>> stages = new HashMap<>();
    Map<String, String> bases = new HashMap<>();
    String current = null;
    for (String line : lines) {
      if (line.startsWith("FROM ")) {
        String[] words = line.trim().split("\\s+");
        current = words.length >= 4 && words[2].equalsIgnoreCase("AS") ? words[3] : "<last>";
        bases.put(current, words[1]);
        stages.put(current, new java.util.ArrayList<>());
      }
      if (current != null) {
        stages.get(current).add(line);
      }
    }
    java.util.LinkedList<String> chain = new java.util.LinkedList<>();
    for (String stage = current; stages.containsKey(stage); stage = bases.get(stage)) {
      chain.addAll(0, stages.get(stage));
    }
    return chain;
  }

  private static String healthcheck(String service) {
    return services.path(service).path("healthcheck").path("test").toString();
  }

  /** A payrelay service's environment as strings (YAML may read some values as numbers). */
  private static Map<String, String> payrelayEnv(String service) {
    return env(services.path(service));
  }

  /** A service's environment as strings. */
  private static Map<String, String> env(JsonNode service) {
    Map<String, String> env = new HashMap<>();
    service
        .path("environment")
        .properties()
        .forEach(e -> env.put(e.getKey(), e.getValue().asText()));
    return env;
  }

  /**
   * {@code ${NAME:-default}} as compose reads it: NAME's value when set and not empty, else the
   * default; {@code $$} is a literal $.
   */
  private static String interpolate(String text, Map<String, String> variables) {
    Matcher m = VARIABLE.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String value = variables.get(m.group(1));
      if (value == null || value.isEmpty()) {
        value = m.group(2) == null ? "" : m.group(2);
      }
      m.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    m.appendTail(out);
    return out.toString().replace("$$", "$");
  }
}
