package dev.payrelay.app.temporal;

import dev.payrelay.workflows.PaymentSearchAttributes;
import dev.payrelay.workflows.RefundSearchAttributes;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.enums.v1.IndexedValueType;
import io.temporal.api.operatorservice.v1.AddSearchAttributesRequest;
import io.temporal.api.operatorservice.v1.ListSearchAttributesRequest;
import io.temporal.serviceclient.OperatorServiceStubs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes sure a namespace has payrelay's search attributes ({@link PaymentSearchAttributes#ALL},
 * {@link RefundSearchAttributes#ALL}, each a Keyword), by name <em>and</em> type, before any
 * workflow upserts them: an attribute registered with another type (e.g. {@code PaymentState} as
 * Int) makes every upsert, and so every hand-off, fail forever, so start-up refuses it with one
 * line naming the attribute, both types and the fix. Per Temporal's visibility docs an attribute's
 * type cannot be changed in place; it is removed and registered again (or another namespace is
 * used).
 */
public final class SearchAttributeRegistration {

  private static final Logger log = LoggerFactory.getLogger(SearchAttributeRegistration.class);
  private static final IndexedValueType KEYWORD = IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;

  /** How long a namespace registered a moment ago may stay unknown to the frontend's cache. */
  private static final Duration WAIT = Duration.ofSeconds(30);

  private final Supplier<OperatorServiceStubs> operator;
  private final String namespace;
  private final boolean mayBeDenied;
  private final boolean canList;

  /**
   * @param mayBeDenied whether the server may deny registration to payrelay (an external cluster
   *     whose operators register attributes out of band); payrelay then runs only if they exist
   * @param canList false for the in-memory test server, which cannot list attributes but knows them
   *     as soon as it accepted them
   */
  SearchAttributeRegistration(
      Supplier<OperatorServiceStubs> operator,
      String namespace,
      boolean mayBeDenied,
      boolean canList) {
    this.operator = operator;
    this.namespace = namespace;
    this.mayBeDenied = mayBeDenied;
    this.canList = canList;
  }

  /**
   * Registers what is missing and checks the types of what exists.
   *
   * @throws IllegalStateException naming the attribute, its type and the fix, when one exists with
   *     another type, or is missing and cannot be registered; its text carries the server's reason
   * @throws StatusRuntimeException for any other refusal of the server
   */
  void ensure() {
    Map<String, IndexedValueType> wanted = wanted();
    Map<String, IndexedValueType> listed = awaitListed(Map.of());
    requireTypes(listed, wanted);
    if (listed.keySet().containsAll(wanted.keySet())) {
      return;
    }
    AddSearchAttributesRequest.Builder request =
        AddSearchAttributesRequest.newBuilder().setNamespace(namespace);
    wanted.forEach((name, type) -> request.putSearchAttributes(name, type));
    try {
      operator.get().blockingStub().addSearchAttributes(request.build());
      log.info("registered search attributes {} on {}", wanted.keySet(), namespace);
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.ALREADY_EXISTS) {
        requireTypes(awaitListed(Map.of()), wanted);
        return;
      }
      if (!mayBeDenied) {
        throw e;
      }
      throw new IllegalStateException(missing(listed, wanted, e), e);
    }
    if (canList) {
      requireTypes(awaitListed(wanted), wanted);
    }
  }

  /**
   * The problem lines for {@code listed} against {@code wanted}: one per attribute of another type.
   */
  static List<String> wrongTypes(
      String namespace,
      Map<String, IndexedValueType> listed,
      Map<String, IndexedValueType> wanted) {
    List<String> wrong = new ArrayList<>();
    wanted.forEach(
        (name, type) -> {
          IndexedValueType has = listed.get(name);
          if (has != null && has != type) {
            wrong.add(
                "search attribute "
                    + name
                    + " is registered on namespace "
                    + namespace
                    + " as "
                    + typeName(has)
                    + ", but payrelay needs "
                    + typeName(type)
                    + ": remove it (temporal operator search-attribute remove --namespace "
                    + namespace
                    + " --name "
                    + name
                    + ") and start again, or use another namespace (PAYRELAY_TEMPORAL_NAMESPACE)");
          }
        });
    return wrong;
  }

  private void requireTypes(
      Map<String, IndexedValueType> listed, Map<String, IndexedValueType> wanted) {
    List<String> wrong = wrongTypes(namespace, listed, wanted);
    if (!wrong.isEmpty()) {
      throw new IllegalStateException(String.join("; ", wrong));
    }
  }

  private String missing(
      Map<String, IndexedValueType> listed,
      Map<String, IndexedValueType> wanted,
      StatusRuntimeException refusal) {
    String absent =
        wanted.keySet().stream()
            .filter(name -> !listed.containsKey(name))
            .map(name -> name + " (" + typeName(wanted.get(name)) + ")")
            .collect(Collectors.joining(", "));
    return "search attributes "
        + absent
        + " are missing on namespace "
        + namespace
        + " and the server refused to register them ("
        + refusal.getStatus().getCode()
        + ": "
        + refusal.getStatus().getDescription()
        + "): register them as the cluster's operator (deploy/temporal-namespace.sh)";
  }

  private static Map<String, IndexedValueType> wanted() {
    Map<String, IndexedValueType> wanted = new TreeMap<>();
    PaymentSearchAttributes.ALL.forEach(key -> wanted.put(key.getName(), KEYWORD));
    RefundSearchAttributes.ALL.forEach(key -> wanted.put(key.getName(), KEYWORD));
    return wanted;
  }

  /** "Keyword" for INDEXED_VALUE_TYPE_KEYWORD: the name the Temporal CLI and UI show. */
  public static String typeName(IndexedValueType type) {
    String name = type.name().replace("INDEXED_VALUE_TYPE_", "");
    return name.isEmpty() ? name : name.charAt(0) + name.substring(1).toLowerCase();
  }

  /** Waits until the namespace is known and lists {@code wanted}; returns what it lists. */
  private Map<String, IndexedValueType> awaitListed(Map<String, IndexedValueType> wanted) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      try {
        Map<String, IndexedValueType> listed = listed();
        if (listed.keySet().containsAll(wanted.keySet())) {
          return listed;
        }
      } catch (StatusRuntimeException e) {
        if (e.getStatus().getCode() != Status.Code.NOT_FOUND || System.nanoTime() > deadline) {
          throw e;
        }
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "search attributes "
                + wanted.keySet()
                + " not listed on "
                + namespace
                + " after registering");
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }
  }

  private Map<String, IndexedValueType> listed() {
    try {
      return operator
          .get()
          .blockingStub()
          .listSearchAttributes(
              ListSearchAttributesRequest.newBuilder().setNamespace(namespace).build())
          .getCustomAttributesMap();
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.UNIMPLEMENTED) {
        return Map.of(); // the in-memory test server
      }
      throw e;
    }
  }
}
