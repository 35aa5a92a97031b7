package dev.payrelay.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.config.ProductionChecks;
import dev.payrelay.app.config.TemporalClientConfig;
import dev.payrelay.app.config.binder.Binder;
import dev.payrelay.app.config.binder.Binding;
import dev.payrelay.app.config.binder.ConfigProblems;
import dev.payrelay.app.config.binder.EffectiveSettings;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code payrelay config}: the effective configuration, each value with where it came from
 * (default, the file and its profile section, an environment variable), secrets masked; {@code
 * --check} validates it as a start would, without starting anything.
 */
@Command(
    name = "config",
    mixinStandardHelpOptions = true,
    description = {
      "Print the effective configuration: every setting's value and its source (default,",
      "file[, %profile], env VAR), secrets masked; docs/configuration-reference.md lists them.",
      "--check: validate only (unknown, mistyped and out-of-bounds settings, files, and in",
      "production mode the api and worker refusals); exit 0 when valid, 2 listing every problem."
    })
final class ConfigCommand implements Callable<Integer> {

  @ParentCommand PayrelayCommand root;

  @Spec CommandSpec spec;

  @Option(names = "--check", description = "Validate only; list every problem.")
  boolean check;

  @Option(names = "--json", description = "Print JSON on stdout instead of text.")
  boolean json;

  @Override
  public Integer call() throws JsonProcessingException {
    Binding binding;
    try {
      binding = Binder.bind(root.environment());
    } catch (ConfigProblems e) {
      return report(null, null, e.problems());
    }
    List<String> problems = new ArrayList<>();
    PayrelayConfig config = null;
    try {
      config = PayrelayConfig.from(binding);
      ProductionChecks.enforce(config, ProductionChecks.Role.API);
    } catch (ConfigProblems e) {
      problems.addAll(e.problems());
    } catch (ProductionChecks.ProductionRefusedException e) {
      problems.addAll(e.refusals());
    }
    return report(binding, config, problems);
  }

  private int report(Binding binding, PayrelayConfig config, List<String> problems)
      throws JsonProcessingException {
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(json(binding, config, problems));
    } else {
      if (binding != null && !check) {
        ConfigText.print(out, binding, config);
      }
      if (problems.isEmpty()) {
        out.println("configuration valid" + (check ? ConfigText.summary(binding, config) : ""));
      } else {
        // On stderr, as every other command prints the refusals that stop its start.
        PrintWriter err = spec.commandLine().getErr();
        err.println(
            "configuration refused ("
                + problems.size()
                + (problems.size() == 1 ? " problem):" : " problems):"));
        problems.forEach(p -> err.println("  " + p));
        err.flush();
      }
    }
    out.flush();
    return problems.isEmpty() ? 0 : PayrelayCommand.CONFIGURATION_ERROR;
  }

  private String json(Binding binding, PayrelayConfig config, List<String> problems)
      throws JsonProcessingException {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("valid", problems.isEmpty());
    doc.put("problems", problems);
    if (binding != null) {
      doc.put("file", binding.file().map(Object::toString).orElse(null));
      doc.put("profile", binding.profile().name().toLowerCase(java.util.Locale.ROOT));
      if (config != null) {
        doc.put("productionMode", config.isProduction());
      }
      if (!check) {
        doc.put("settings", EffectiveSettings.of(binding));
        doc.put("temporalClient", ConfigText.temporal(binding));
      }
    }
    return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(doc);
  }

  /** How a Temporal client value is shown: its value (the API key masked) and its source. */
  record TemporalValue(String value, String source) {

    static TemporalValue of(TemporalClientConfig client, String field, String value) {
      return new TemporalValue(value, client.sources().get(field));
    }
  }
}
