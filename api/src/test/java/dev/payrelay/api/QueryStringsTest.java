package dev.payrelay.api;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class QueryStringsTest {

  @Test
  void wellFormedQueries_pass() {
    for (String query :
        new String[] {
          null, "", "state=PAID", "pageToken=", "flag", "a=b=c&x=%2F%25+y", "tenantId=t%C3%A9"
        }) {
      assertThatCode(() -> QueryStrings.requireWellFormed(query))
          .as(query)
          .doesNotThrowAnyException();
    }
  }

  @Test
  void aBarePercent_inAValueOrAName_isRefusedNamingTheParameter() {
    assertThatThrownBy(() -> QueryStrings.requireWellFormed("state=PAID&pageToken=%%%"))
        .isInstanceOf(BadRequestException.class)
        .hasMessageStartingWith("pageToken is not valid percent-encoding");
    assertThatThrownBy(() -> QueryStrings.requireWellFormed("limit=5%"))
        .hasMessageStartingWith("limit is not valid percent-encoding");
    assertThatThrownBy(() -> QueryStrings.requireWellFormed("page%zzToken=a"))
        .hasMessageStartingWith("a query parameter's name is not valid percent-encoding");
  }
}
