package dev.payrelay.e2e;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * One scrape of a {@code /metrics} endpoint in the Prometheus text exposition format 0.0.4: every
 * sample line as name, label text and value; {@code # HELP} and {@code # TYPE} lines skipped.
 *
 * @param samples the sample lines, in the order scraped
 */
record PrometheusScrape(List<Sample> samples) {

  private static final Pattern LE = Pattern.compile(",?le=\"[^\"]*\"");
  private static final Pattern LINE =
      Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s+(\\S+)(\\s+\\d+)?$");

  /**
   * One sample.
   *
   * @param name the series name, e.g. {@code hikaricp_connections_pending}
   * @param labels the label text between the braces, e.g. {@code pool="payrelay-api"}; "" if none
   * @param value the value (NaN for "NaN")
   */
  record Sample(String name, String labels, double value) {}

  /** GETs {@code uri} and parses the answer; fails on any status but 200. */
  static PrometheusScrape of(HttpClient http, URI uri) throws IOException, InterruptedException {
    HttpResponse<String> r =
        http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IllegalStateException(uri + " answered " + r.statusCode() + ": " + r.body());
    }
    return parse(r.body());
  }

  /** Parses exposition text. */
  static PrometheusScrape parse(String text) {
    List<Sample> samples = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      Matcher m = LINE.matcher(line.trim());
      if (!m.matches()) {
        throw new IllegalArgumentException("not a sample line: " + line);
      }
      samples.add(
          new Sample(
              m.group(1), m.group(3) == null ? "" : m.group(3), Double.parseDouble(m.group(4))));
    }
    return new PrometheusScrape(List.copyOf(samples));
  }

  /** Every series name in the scrape. */
  Set<String> names() {
    return samples.stream().map(Sample::name).collect(Collectors.toSet());
  }

  /**
   * How many buckets each histogram series whose name starts with {@code prefix} has: by series
   * (the {@code _bucket} name and its labels without {@code le}), the count of its {@code le}
   * samples, {@code +Inf} included.
   */
  Map<String, Long> bucketsPerSeries(String prefix) {
    return samples.stream()
        .filter(s -> s.name().startsWith(prefix) && s.name().endsWith("_bucket"))
        .collect(
            Collectors.groupingBy(
                s -> s.name() + "{" + LE.matcher(s.labels()).replaceAll("") + "}",
                TreeMap::new,
                Collectors.counting()));
  }

  /**
   * The sum of the values of {@code name}'s samples whose label text contains every one of {@code
   * labels} (e.g. {@code status="PENDING"}); empty when there is no such sample.
   */
  Optional<Double> sum(String name, String... labels) {
    List<Sample> matching =
        samples.stream()
            .filter(s -> s.name().equals(name))
            .filter(s -> List.of(labels).stream().allMatch(s.labels()::contains))
            .toList();
    return matching.isEmpty()
        ? Optional.empty()
        : Optional.of(matching.stream().mapToDouble(Sample::value).sum());
  }
}
