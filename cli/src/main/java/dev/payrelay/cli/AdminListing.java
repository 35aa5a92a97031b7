package dev.payrelay.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.Map;
import java.util.function.BiConsumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The picocli mixin of the commands that list what one admin API request answers ({@code outbox
 * list}, {@code admin payments}, {@code consumers quarantine list}): a table, or with {@code
 * --json} the admin API's own JSON. {@code @Command} marks it as a mixin only.
 */
@Command
final class AdminListing {

  @Option(names = "--json", description = "Print the admin API's JSON instead of a table.")
  boolean json;

  /**
   * Asks {@code GET path} with {@code query} through {@code api} and prints the answer as {@code
   * table} writes it, or as JSON.
   *
   * @return as {@link AdminApi#call}
   */
  int show(
      AdminApi api, String path, Map<String, Object> query, BiConsumer<JsonNode, PrintWriter> table)
      throws InterruptedException {
    return api.call(
        admin -> {
          JsonNode answer = admin.get(path, query);
          return api.print(answer, json, out -> table.accept(answer, out));
        });
  }
}
