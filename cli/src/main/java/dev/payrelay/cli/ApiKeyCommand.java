package dev.payrelay.cli;

import dev.payrelay.api.auth.ApiKeys;
import dev.payrelay.api.auth.Role;
import java.io.PrintWriter;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code payrelay apikey}: makes a new API key. Prints the key once (for its user) and the line to
 * add to {@code PAYRELAY_API_KEYS} or the file of {@code PAYRELAY_API_KEYS_FILE}, which holds only
 * its SHA-256.
 */
@Command(
    name = "apikey",
    mixinStandardHelpOptions = true,
    description = {
      "Make a new API key: prints the key (once) and its configuration line.",
      "Give the key to its user (PAYRELAY_API_KEY for the CLI, Authorization: Bearer",
      "for HTTP); add the line to PAYRELAY_API_KEYS or PAYRELAY_API_KEYS_FILE.",
      "Roles: read (look), operate (create payments, fix one payment), admin (bulk",
      "replay, reconciliations)."
    })
final class ApiKeyCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--role", required = true, description = "read, operate or admin.")
  String role;

  @Option(
      names = "--operator",
      required = true,
      description = "Who acts with it; recorded in every audit row.")
  String operator;

  @Option(
      names = "--tenants",
      required = true,
      split = ",",
      description = "The tenants it may act for, comma-separated, or * for every tenant.")
  List<String> tenants;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    ApiKeys.Issued issued = ApiKeys.issue(Role.parse(role), operator, new LinkedHashSet<>(tenants));
    out.println("key (give it to " + operator + "; it is shown only now):");
    out.println("  " + issued.token());
    out.println("configuration line (PAYRELAY_API_KEYS or PAYRELAY_API_KEYS_FILE):");
    out.println("  " + issued.line());
    out.flush();
    return 0;
  }
}
