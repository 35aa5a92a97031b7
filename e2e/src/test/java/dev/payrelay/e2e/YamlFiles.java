package dev.payrelay.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/** YAML deploy files (compose, Prometheus rules) read as Jackson trees, for assertions. */
final class YamlFiles {

  private YamlFiles() {}

  /**
   * {@code text} as a tree: SnakeYAML's safe loader resolves anchors ({@code &name}, {@code *name})
   * and merge keys ({@code <<}) as docker compose and Prometheus do.
   */
  static JsonNode parse(String text) {
    Object yaml = new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
    return new ObjectMapper().valueToTree(yaml);
  }
}
