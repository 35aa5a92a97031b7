package dev.payrelay.ledger.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.ledger.testing.TestDatabase;
import java.sql.SQLIntegrityConstraintViolationException;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Result;
import org.jooq.Table;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link RenderedQuery}: rendered once, bound by name, on the real database. */
class RenderedQueryTest {

  private static final Table<Record> T = DSL.table(DSL.name("rendered_query_t"));
  private static final Field<String> ID = DSL.field(DSL.name("id"), SQLDataType.VARCHAR(20));
  private static final Field<String> KIND = DSL.field(DSL.name("kind"), SQLDataType.VARCHAR(20));
  private static final Field<Long> AMOUNT = DSL.field(DSL.name("amount"), SQLDataType.BIGINT);

  private static TestDatabase db;
  private static DSLContext dsl;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(RenderedQueryTest.class);
    dsl = db.database().dsl();
    dsl.createTable(T).column(ID).column(KIND).column(AMOUNT).primaryKey(ID).execute();
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @Test
  void bindsNamedValuesByName_andKeepsTheQuerysConstants_wherever_theyAppear() {
    // The names are given in another order than the columns, and a constant sits between them.
    RenderedQuery insert =
        RenderedQuery.of(
            DSL.insertInto(T)
                .set(AMOUNT, DSL.param("amount", Long.class))
                .set(KIND, "card")
                .set(ID, DSL.param("id", String.class)),
            "id",
            "amount");
    RenderedQuery select =
        RenderedQuery.of(
            DSL.select(ID, KIND, AMOUNT)
                .from(T)
                .where(KIND.eq("card"))
                .and(AMOUNT.ge(DSL.param("min", Long.class)))
                .orderBy(ID),
            "min");

    assertThat(insert.execute(dsl, "a", 100L)).isEqualTo(1);
    assertThat(insert.execute(dsl, "b", 250L)).isEqualTo(1);
    Result<Record> rows = select.fetch(dsl, 200L);

    assertThat(select.sql()).doesNotContain("card").contains("?");
    assertThat(rows).hasSize(1);
    assertThat(rows.getFirst().get(ID)).isEqualTo("b");
    assertThat(rows.getFirst().get(KIND)).isEqualTo("card");
    assertThat(rows.getFirst().get(AMOUNT)).isEqualTo(250L);
  }

  @Test
  void runsInTheCallersTransaction() {
    RenderedQuery insert =
        RenderedQuery.of(
            DSL.insertInto(T)
                .set(ID, DSL.param("id", String.class))
                .set(KIND, "rolled-back")
                .set(AMOUNT, 1L),
            "id");

    assertThatThrownBy(
            () ->
                dsl.transaction(
                    cfg -> {
                      insert.execute(cfg.dsl(), "tx-1");
                      throw new IllegalStateException("roll back");
                    }))
        .isInstanceOf(IllegalStateException.class);

    assertThat(dsl.fetchCount(T, ID.eq("tx-1"))).isZero();
  }

  @Test
  void aDuplicateKey_isJooqsDataAccessException_withTheSqlCause() {
    RenderedQuery insert =
        RenderedQuery.of(
            DSL.insertInto(T).set(ID, DSL.param("id", String.class)).set(AMOUNT, 1L), "id");
    insert.execute(dsl, "dup");

    assertThatThrownBy(() -> insert.execute(dsl, "dup"))
        .isInstanceOf(DataAccessException.class)
        .hasCauseInstanceOf(SQLIntegrityConstraintViolationException.class);
    assertThat(UniqueKeys.isViolationOf(catchDuplicate(insert), "PRIMARY")).isTrue();
  }

  @Test
  void refusesNamesTheQueryLacks_parametersNotNamed_andTheWrongNumberOfValues() {
    assertThatThrownBy(() -> RenderedQuery.of(DSL.selectFrom(T).where(ID.eq("x")), "id"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("parameter id is not in");
    assertThatThrownBy(
            () -> RenderedQuery.of(DSL.selectFrom(T).where(ID.eq(DSL.param("id", String.class)))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(":id is not among");
    RenderedQuery select =
        RenderedQuery.of(DSL.selectFrom(T).where(ID.eq(DSL.param("id", String.class))), "id");
    assertThatThrownBy(() -> select.fetch(dsl))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expected values for [id], got 0");
  }

  @Test
  void findsParameterTokens_outsideQuotedLiteralsAndIdentifiers_only() {
    assertThat(
            RenderedQuery.parameterTokens(
                "select `a:b`, 'x:y', \"c:d\" from t where id = :id and n = :2 and s = 'it''s:z'"))
        .containsExactly("id", "2");
  }

  private static DataAccessException catchDuplicate(RenderedQuery insert) {
    try {
      insert.execute(dsl, "dup");
      throw new AssertionError("no duplicate");
    } catch (DataAccessException e) {
      return e;
    }
  }
}
