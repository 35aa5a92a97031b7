package dev.payrelay.temporal.client;

import com.google.protobuf.ByteString;
import dev.payrelay.workflows.PaymentSearchAttributes;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.workflow.v1.WorkflowExecutionInfo;
import io.temporal.api.workflowservice.v1.ListWorkflowExecutionsRequest;
import io.temporal.api.workflowservice.v1.ListWorkflowExecutionsResponse;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionMetadata;
import io.temporal.common.SearchAttributes;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Client-side helper (not workflow code): lists payment workflows through Temporal's visibility
 * store with the ListWorkflowExecutions RPC, one page per call, so the admin API, the CLI and the
 * Web UI's query box give the same answer for the same {@link PaymentListingFilter#query()}.
 * Visibility is eventually consistent: a state change shows up shortly after the workflow upserts
 * it, never in the same instant.
 */
public final class PaymentListing {

  /** Rows per page when the caller names no limit. */
  public static final int DEFAULT_LIMIT = 100;

  /** Most rows per page: bounds the frontend's work and the answer's size. */
  public static final int MAX_LIMIT = 1000;

  /** Long enough for a busy frontend, short enough that an operator is not left waiting. */
  private static final long RPC_TIMEOUT_SECONDS = 10;

  private static final String STATUS_PREFIX = "WORKFLOW_EXECUTION_STATUS_";

  private final WorkflowClient client;

  /** Lists in {@code client}'s namespace. */
  public PaymentListing(WorkflowClient client) {
    this.client = client;
  }

  /**
   * Runs the filter's query for one page.
   *
   * @param limit rows per page, 1..{@link #MAX_LIMIT}
   * @param pageToken null (or blank) for the first page, else a previous page's {@code
   *     nextPageToken} for the same filter
   * @throws IllegalArgumentException for a limit out of range or a page token that is not one of
   *     ours: not base64url (RFC 4648 §5), or refused by the server while it lists the same query
   *     without a token (one more ListWorkflowExecutions call tells the two apart)
   * @throws PaymentListingUnavailableException when Temporal is unreachable, does not support
   *     listing, or refuses the query
   */
  public PaymentListingPage list(PaymentListingFilter filter, int limit, String pageToken) {
    return list(filter.query(), limit, pageToken);
  }

  /**
   * One page of every run (running or closed, each continuation) of these payments' workflows,
   * {@link #MAX_LIMIT} rows at most: {@link PaymentListingFilter#paymentIdsQuery}. Closed runs are
   * listed until the namespace's retention deletes them.
   *
   * @param pageToken null for the first page, else the previous page's {@code nextPageToken}
   * @throws IllegalArgumentException for no ids or an id that cannot be quoted safely
   * @throws PaymentListingUnavailableException as {@link #list(PaymentListingFilter, int, String)}
   */
  public PaymentListingPage runsOf(Collection<String> paymentIds, String pageToken) {
    return list(PaymentListingFilter.paymentIdsQuery(paymentIds), MAX_LIMIT, pageToken);
  }

  private PaymentListingPage list(String query, int limit, String pageToken) {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException("limit must be 1.." + MAX_LIMIT + ", got " + limit);
    }
    boolean paging = pageToken != null && !pageToken.isBlank();
    ListWorkflowExecutionsResponse response;
    try {
      response = call(query, limit, paging ? decode(pageToken) : ByteString.EMPTY);
    } catch (StatusRuntimeException e) {
      throw refused(e, paging && refusedTheToken(e, query));
    }
    List<PaymentListingRow> rows = response.getExecutionsList().stream().map(this::row).toList();
    ByteString next = response.getNextPageToken();
    return new PaymentListingPage(query, rows, next.isEmpty() ? null : encode(next));
  }

  private ListWorkflowExecutionsResponse call(String query, int limit, ByteString pageToken) {
    return client
        .getWorkflowServiceStubs()
        .blockingStub()
        .withDeadlineAfter(RPC_TIMEOUT_SECONDS, TimeUnit.SECONDS)
        .listWorkflowExecutions(
            ListWorkflowExecutionsRequest.newBuilder()
                .setNamespace(client.getOptions().getNamespace())
                .setQuery(query)
                .setPageSize(limit)
                .setNextPageToken(pageToken)
                .build());
  }

  /**
   * Whether a failure of a request with a page token was the token's fault. A token the visibility
   * store cannot read comes back as INVALID_ARGUMENT, or as UNKNOWN ("something went wrong, please
   * retry": the frontend masks the store's error; the dev server's SQLite store does this) or
   * INTERNAL. Each of those can also be the query's or the server's fault, so the same query is
   * asked again for its first page: if that works, the token was refused.
   */
  private boolean refusedTheToken(StatusRuntimeException e, String query) {
    return switch (e.getStatus().getCode()) {
      case INVALID_ARGUMENT, UNKNOWN, INTERNAL -> listsFromTheStart(query);
      default -> false;
    };
  }

  private boolean listsFromTheStart(String query) {
    try {
      call(query, 1, ByteString.EMPTY);
      return true;
    } catch (StatusRuntimeException e) {
      return false;
    }
  }

  private PaymentListingRow row(WorkflowExecutionInfo info) {
    WorkflowExecutionMetadata m =
        new WorkflowExecutionMetadata(info, client.getOptions().getDataConverter());
    SearchAttributes attributes = m.getTypedSearchAttributes();
    return new PaymentListingRow(
        m.getExecution().getWorkflowId(),
        attributes.get(PaymentSearchAttributes.PAYMENT_ID),
        attributes.get(PaymentSearchAttributes.ORDER_ID),
        attributes.get(PaymentSearchAttributes.TENANT_ID),
        attributes.get(PaymentSearchAttributes.CHANNEL),
        attributes.get(PaymentSearchAttributes.PAYMENT_STATE),
        m.getStatus().name().replace(STATUS_PREFIX, ""),
        m.getStartTime(),
        info.hasCloseTime() ? m.getCloseTime() : null,
        attributes.get(PaymentSearchAttributes.PAYMENT_ATTENTION));
  }

  private RuntimeException refused(StatusRuntimeException e, boolean tokenRefused) {
    Status.Code code = e.getStatus().getCode();
    String target = client.getWorkflowServiceStubs().getOptions().getTarget();
    String namespace = client.getOptions().getNamespace();
    String why = e.getStatus().getDescription();
    if (tokenRefused) {
      return new IllegalArgumentException(
          "pageToken was not accepted by Temporal ("
              + code
              + ": "
              + why
              + "): pass only the nextPageToken of the previous page of the same query, or none"
              + " for the first page",
          e);
    }
    return switch (code) {
      case INVALID_ARGUMENT ->
          new PaymentListingUnavailableException(
              "Temporal refused the listing query (are payrelay's search attributes registered"
                  + " on namespace "
                  + namespace
                  + "?): "
                  + why,
              e);
      case UNIMPLEMENTED ->
          new PaymentListingUnavailableException(
              "the Temporal server at "
                  + target
                  + " does not support listing workflows (the in-memory test server has no"
                  + " visibility store); use the dev server (./payrelay dev) or a real cluster",
              e);
      case UNAVAILABLE, DEADLINE_EXCEEDED ->
          new PaymentListingUnavailableException(
              "Temporal is unreachable at " + target + " (" + code + "): " + why, e);
      default ->
          new PaymentListingUnavailableException(
              "Temporal could not list namespace " + namespace + " (" + code + "): " + why, e);
    };
  }

  private static ByteString decode(String pageToken) {
    try {
      return ByteString.copyFrom(Base64.getUrlDecoder().decode(pageToken.trim()));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "pageToken is not a token this listing returned (not base64url)", e);
    }
  }

  private static String encode(ByteString token) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(token.toByteArray());
  }
}
