package dev.payrelay.channels.alipay;

import com.alipay.api.domain.AlipayDataDataserviceBillDownloadurlQueryModel;
import com.alipay.api.request.AlipayDataDataserviceBillDownloadurlQueryRequest;
import com.alipay.api.response.AlipayDataDataserviceBillDownloadurlQueryResponse;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.StatementPage;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.LocalDate;

/**
 * The statement: {@code alipay.data.dataservice.bill.downloadurl.query} ({@code bill_type=trade},
 * {@code bill_date=yyyy-MM-dd}) answers a short-lived {@code bill_download_url}, which is then
 * fetched with a plain GET and read by {@link AlipayBillFormat}.
 */
final class AlipayBills {

  /** Alipay's answer for a day whose bill is not generated (yet). */
  private static final String BILL_NOT_EXIST = "isp.bill_not_exist";

  private final AlipayGateway gateway;
  private final HttpClient http;
  private final Duration timeout;

  AlipayBills(AlipayGateway gateway, HttpClient http, Duration timeout) {
    this.gateway = gateway;
    this.http = http;
    this.timeout = timeout;
  }

  StatementPage statement(LocalDate date, String pageToken) throws ChannelException {
    if (pageToken != null) {
      throw new IllegalArgumentException("Alipay's bill is one page; no page token expected");
    }
    AlipayDataDataserviceBillDownloadurlQueryModel model =
        new AlipayDataDataserviceBillDownloadurlQueryModel();
    model.setBillType("trade");
    model.setBillDate(date.toString());
    AlipayDataDataserviceBillDownloadurlQueryRequest request =
        new AlipayDataDataserviceBillDownloadurlQueryRequest();
    request.setBizModel(model);
    AlipayDataDataserviceBillDownloadurlQueryResponse answer = gateway.execute(request);
    if (BILL_NOT_EXIST.equals(answer.getSubCode())) {
      throw new ChannelException("no bill for " + date + " yet: " + answer.getSubMsg(), true, null);
    }
    if (!answer.isSuccess() || answer.getBillDownloadUrl() == null) {
      throw AlipayGateway.failure(request, answer);
    }
    try {
      return new StatementPage(
          date, AlipayBillFormat.parse(download(answer.getBillDownloadUrl())), null);
    } catch (IOException | IllegalArgumentException e) {
      throw new ChannelException("bill for " + date + " unreadable: " + e.getMessage(), false, e);
    }
  }

  private byte[] download(String url) throws ChannelException {
    HttpResponse<byte[]> response;
    try {
      response =
          http.send(
              HttpRequest.newBuilder(URI.create(url)).timeout(timeout).GET().build(),
              HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw new ChannelException("bill download failed: " + e.getMessage(), true, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ChannelException("bill download interrupted", true, e);
    }
    if (response.statusCode() != 200) {
      // The download URL is short-lived: a retry of the whole call fetches a fresh one.
      throw new ChannelException(
          "bill download answered HTTP " + response.statusCode(), true, null);
    }
    return response.body();
  }
}
