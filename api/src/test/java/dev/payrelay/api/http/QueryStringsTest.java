package dev.payrelay.api.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.api.BadRequestException;
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

  @Test
  void integers_outsideTheirRange_orPastALong_areRefused_neverWrapped() {
    assertThat(QueryStrings.integer(null, "limit", 100, 1, 1000)).isEqualTo(100);
    assertThat(QueryStrings.integer("1000", "limit", 100, 1, 1000)).isEqualTo(1000);
    for (String bad : new String[] {"4294967297", "0", "1001", "-1", "9".repeat(30), "", "1.5"}) {
      assertThatThrownBy(() -> QueryStrings.integer(bad, "limit", 100, 1, 1000))
          .as(bad)
          .isInstanceOf(BadRequestException.class)
          .hasMessage("limit must be an integer 1..1000, got " + bad);
    }
  }
}
