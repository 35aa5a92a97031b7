package dev.payrelay.temporal.client;

import dev.payrelay.workflows.PaymentView;
import dev.payrelay.workflows.RefundView;
import dev.payrelay.workflows.WorkflowIds;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.common.v1.Payloads;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.HistoryEventFilterType;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.api.query.v1.WorkflowQuery;
import io.temporal.api.sdk.v1.WorkflowMetadata;
import io.temporal.api.workflow.v1.WorkflowExecutionInfo;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.api.workflowservice.v1.GetWorkflowExecutionHistoryRequest;
import io.temporal.api.workflowservice.v1.QueryWorkflowRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Client-side helper (not workflow code): reads one payment's or refund's workflow for its trail
 * with a DescribeWorkflowExecution call and two queries, {@code __temporal_workflow_metadata} (the
 * SDK's built-in query whose {@link WorkflowMetadata#getCurrentDetails()} is what the run set with
 * {@code Workflow.setCurrentDetails}) and {@code state} ({@link PaymentView} or {@link
 * RefundView}). Each call has its own deadline, so an unreachable frontend or a run without a
 * worker to answer its queries costs seconds, never the caller's whole request. Never throws for
 * Temporal's failures: they are named in {@link WorkflowSummary#error()}.
 */
public final class WorkflowInspection {

  /** The SDK's built-in query answering {@link WorkflowMetadata} (sdk-java, since 1.26). */
  public static final String METADATA_QUERY = "__temporal_workflow_metadata";

  /** Describe is one read of the frontend: a healthy one answers in milliseconds. */
  private static final long DESCRIBE_SECONDS = 5;

  /** A query waits for a worker to replay the run; more than this means none is polling. */
  private static final long QUERY_SECONDS = 5;

  private static final String STATUS_PREFIX = "WORKFLOW_EXECUTION_STATUS_";

  private final WorkflowClient client;
  private final URI uiUrl;

  /**
   * Reads through {@code client}'s namespace.
   *
   * @param uiUrl the Temporal UI's base address (e.g. {@code http://127.0.0.1:8233}) for the run's
   *     link, or null for no link
   */
  public WorkflowInspection(WorkflowClient client, URI uiUrl) {
    this.client = client;
    this.uiUrl = uiUrl;
  }

  /** The workflow of payment {@code paymentId}, as far as Temporal answers. */
  public WorkflowSummary payment(String paymentId) {
    return inspect(
        WorkflowIds.payment(paymentId),
        PaymentView.class,
        view ->
            new Reason(
                view.state() == null ? null : view.state().name(),
                view.lastError(),
                view.causes(),
                view.waitingFor()));
  }

  /**
   * The workflow of refund {@code refundId} ({@code refund-{refundId}}), as far as Temporal
   * answers; its {@code state} query is a {@link RefundView}, whose one attention reason becomes
   * the list.
   */
  public WorkflowSummary refund(String refundId) {
    return inspect(
        WorkflowIds.refund(refundId),
        RefundView.class,
        view ->
            new Reason(
                view.state() == null ? null : view.state().name(),
                view.lastError(),
                view.attention() == null ? List.of() : List.of(view.attention()),
                view.waitingFor()));
  }

  /** What a workflow's {@code state} query says of why it is where it is. */
  private record Reason(String state, String lastError, List<String> attention, String waitingFor) {
    /** Nothing read. */
    static final Reason NONE = new Reason(null, null, List.of(), null);
  }

  private <V> WorkflowSummary inspect(
      String workflowId, Class<V> viewType, Function<V, Reason> reasonOf) {
    WorkflowExecutionInfo info;
    try {
      info = describe(workflowId);
    } catch (StatusRuntimeException e) {
      return failed(workflowId, e);
    }
    WorkflowExecution run = info.getExecution();
    String runId = run.getRunId();
    String status = statusName(info.getStatus());
    String closeReason = closeReason(run, info.getStatus());
    String link = link(workflowId, runId);
    String details = null;
    Reason reason = Reason.NONE;
    String error = null;
    try {
      details = query(run, METADATA_QUERY, WorkflowMetadata.class).getCurrentDetails();
      V view = query(run, "state", viewType);
      reason = view == null ? Reason.NONE : reasonOf.apply(view);
    } catch (RuntimeException e) {
      details = null;
      error = queryFailure(e, info.getStatus(), status);
    }
    return new WorkflowSummary(
        workflowId,
        namespace(),
        address(),
        true,
        runId,
        status,
        closeReason,
        link,
        details == null || details.isBlank() ? null : details,
        reason.state(),
        reason.lastError(),
        reason.attention(),
        reason.waitingFor(),
        error);
  }

  private WorkflowExecutionInfo describe(String workflowId) {
    return stubs()
        .blockingStub()
        .withDeadlineAfter(DESCRIBE_SECONDS, TimeUnit.SECONDS)
        .describeWorkflowExecution(
            DescribeWorkflowExecutionRequest.newBuilder()
                .setNamespace(namespace())
                .setExecution(WorkflowExecution.newBuilder().setWorkflowId(workflowId))
                .build())
        .getWorkflowExecutionInfo();
  }

  /**
   * A Terminated run's reason or a Failed run's failure message, from its close event (one
   * GetWorkflowExecutionHistory call filtered to it); null for other statuses, or when the history
   * could not be read, since the status alone still tells the run closed.
   */
  private String closeReason(WorkflowExecution run, WorkflowExecutionStatus status) {
    if (status != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_TERMINATED
        && status != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_FAILED) {
      return null;
    }
    List<HistoryEvent> events;
    try {
      events =
          stubs()
              .blockingStub()
              .withDeadlineAfter(DESCRIBE_SECONDS, TimeUnit.SECONDS)
              .getWorkflowExecutionHistory(
                  GetWorkflowExecutionHistoryRequest.newBuilder()
                      .setNamespace(namespace())
                      .setExecution(run)
                      .setHistoryEventFilterType(
                          HistoryEventFilterType.HISTORY_EVENT_FILTER_TYPE_CLOSE_EVENT)
                      .build())
              .getHistory()
              .getEventsList();
    } catch (StatusRuntimeException e) {
      return null;
    }
    for (HistoryEvent event : events) {
      if (event.hasWorkflowExecutionTerminatedEventAttributes()) {
        return blankToNull(event.getWorkflowExecutionTerminatedEventAttributes().getReason());
      }
      if (event.hasWorkflowExecutionFailedEventAttributes()) {
        return blankToNull(
            event.getWorkflowExecutionFailedEventAttributes().getFailure().getMessage());
      }
    }
    return null;
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }

  private <T> T query(WorkflowExecution run, String queryType, Class<T> type) {
    Payloads result =
        stubs()
            .blockingStub()
            .withDeadlineAfter(QUERY_SECONDS, TimeUnit.SECONDS)
            .queryWorkflow(
                QueryWorkflowRequest.newBuilder()
                    .setNamespace(namespace())
                    .setExecution(run)
                    .setQuery(WorkflowQuery.newBuilder().setQueryType(queryType))
                    .build())
            .getQueryResult();
    return client.getOptions().getDataConverter().fromPayloads(0, Optional.of(result), type, type);
  }

  /** Not found is an answer (the dispatcher has not started it yet); the rest is unreachable. */
  private WorkflowSummary failed(String workflowId, StatusRuntimeException e) {
    Status.Code code = e.getStatus().getCode();
    boolean notFound = code == Status.Code.NOT_FOUND;
    boolean unreachable = code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED;
    String error =
        notFound
            ? "no workflow " + workflowId + " in namespace " + namespace() + " (not started yet?)"
            : unreachable
                ? "Temporal unreachable (" + address() + ")"
                : "Temporal could not describe "
                    + workflowId
                    + " ("
                    + code
                    + "): "
                    + description(e);
    return new WorkflowSummary(
        workflowId,
        namespace(),
        address(),
        !unreachable,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        List.of(),
        null,
        error);
  }

  /**
   * Why the queries had no answer, in one line. A closed run (terminated, failed, timed out) may
   * close with a workflow task it never ran, and then Temporal refuses its queries
   * (FAILED_PRECONDITION): that is its status speaking, not a fault. A worker's failed query answer
   * carries the SDK's stack trace as its message; only its first line is kept.
   */
  private static String queryFailure(
      RuntimeException e, WorkflowExecutionStatus status, String statusName) {
    if (status != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
      return "the run is "
          + statusName
          + ", so its last state and current details could not be read ("
          + (e instanceof StatusRuntimeException s ? description(s) : firstLine(e.getMessage()))
          + ")";
    }
    if (e instanceof StatusRuntimeException s) {
      Status.Code code = s.getStatus().getCode();
      return code == Status.Code.DEADLINE_EXCEEDED
          ? "its queries had no answer within "
              + QUERY_SECONDS
              + " s (is a worker polling its task queue?)"
          : "its queries failed (" + code + "): " + description(s);
    }
    return "its query answer could not be read: " + firstLine(e.getMessage());
  }

  private static String description(StatusRuntimeException e) {
    String d = e.getStatus().getDescription();
    return d == null ? e.getStatus().getCode().name() : firstLine(d);
  }

  private static String firstLine(String text) {
    if (text == null) {
      return "no message";
    }
    return text.strip().lines().findFirst().orElse("no message");
  }

  /** {@code WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW} as the UI names it: ContinuedAsNew. */
  static String statusName(WorkflowExecutionStatus status) {
    StringBuilder name = new StringBuilder();
    for (String part : status.name().replace(STATUS_PREFIX, "").split("_")) {
      name.append(part.charAt(0)).append(part.substring(1).toLowerCase(Locale.ROOT));
    }
    return name.toString();
  }

  private String link(String workflowId, String runId) {
    if (uiUrl == null) {
      return null;
    }
    return uiUrl.toString().replaceAll("/+$", "")
        + "/namespaces/"
        + segment(namespace())
        + "/workflows/"
        + segment(workflowId)
        + "/"
        + segment(runId);
  }

  private static String segment(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private WorkflowServiceStubs stubs() {
    return client.getWorkflowServiceStubs();
  }

  private String namespace() {
    return client.getOptions().getNamespace();
  }

  /** host:port; the in-memory test server's in-process channel has none. */
  private String address() {
    String target = stubs().getOptions().getTarget();
    return target == null ? "in-process" : target;
  }
}
