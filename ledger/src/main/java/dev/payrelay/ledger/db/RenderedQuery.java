package dev.payrelay.ledger.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Query;
import org.jooq.Record;
import org.jooq.Result;
import org.jooq.Select;
import org.jooq.impl.DSL;

/**
 * A jOOQ query rendered to SQL once and then executed many times over JDBC with new bind values.
 * The jOOQ manual ("Performance considerations") names rendering as a cost of every execution and
 * suggests caching the SQL jOOQ generated. Flight recordings under load put rendering at 23% of the
 * API's CPU samples in a callback and 7% of the worker's (docs/benchmarks.md).
 *
 * <p>The query is still written with the generated classes, so the schema stays its source; the
 * values that change per call are named parameters ({@code DSL.param("paymentId", String.class)})
 * and every other bind value is a constant of the query. Results come back as jOOQ records with the
 * query's own fields, so callers map them as before ({@code into(TABLE)}, {@code get(FIELD)}).
 *
 * <p>Errors: an {@link java.sql.SQLException} reaches the caller as jOOQ's {@link
 * org.jooq.exception.DataAccessException} with the SQL exception as its cause, as from jOOQ's own
 * execution, so {@link Transactions} and {@link UniqueKeys} read it the same way.
 *
 * <p>Thread-safe and immutable; build each as a constant.
 */
public final class RenderedQuery {

  private static final DSLContext RENDERER = DSL.using(Database.DIALECT, Database.SETTINGS);

  private final String sql;
  private final List<String> names;
  // One slot per JDBC parameter, in order: the index of a caller's value in names, or -1 for a
  // constant of the query (in constants).
  private final int[] slots;
  private final Object[] constants;
  private final Field<?>[] fields;

  private RenderedQuery(Query query, List<String> names) {
    this.sql = RENDERER.render(query);
    this.names = List.copyOf(names);
    List<Object> bindValues = RENDERER.extractBindValues(query);
    List<String> tokens = parameterTokens(RENDERER.renderNamedParams(query));
    if (tokens.size() != bindValues.size()) {
      throw new IllegalStateException(
          "rendered " + tokens.size() + " named parameters but " + bindValues.size() + ": " + sql);
    }
    slots = new int[tokens.size()];
    constants = new Object[tokens.size()];
    boolean[] used = new boolean[names.size()];
    for (int i = 0; i < tokens.size(); i++) {
      int name = names.indexOf(tokens.get(i));
      if (name < 0 && !isIndex(tokens.get(i))) {
        throw new IllegalStateException(
            "parameter :" + tokens.get(i) + " is not among " + names + ": " + sql);
      }
      slots[i] = name;
      constants[i] = name < 0 ? bindValues.get(i) : null;
      if (name >= 0) {
        used[name] = true;
      }
    }
    for (int i = 0; i < used.length; i++) {
      if (!used[i]) {
        throw new IllegalStateException("parameter " + names.get(i) + " is not in: " + sql);
      }
    }
    this.fields =
        query instanceof Select<?> select ? select.getSelect().toArray(Field[]::new) : null;
  }

  /**
   * Renders {@code query} for {@link Database#DIALECT}.
   *
   * @param query built with {@code DSL.param(name, type)} for each value that changes per call
   * @param names those parameters' names, in the order {@link #execute} and {@link #fetch} take
   *     their values
   * @throws IllegalStateException when a parameter is neither named here nor a constant, or a name
   *     is not in the query
   */
  public static RenderedQuery of(Query query, String... names) {
    return new RenderedQuery(query, Arrays.asList(names));
  }

  /**
   * Runs an INSERT, UPDATE or DELETE on {@code dsl}'s connection (inside a transaction, its
   * transaction's).
   *
   * @param values one per name given to {@link #of}, in that order
   * @return the affected row count, as JDBC's {@code executeUpdate}
   */
  public int execute(DSLContext dsl, Object... values) {
    return dsl.connectionResult(
        connection -> {
          try (PreparedStatement statement = prepare(connection, values)) {
            return statement.executeUpdate();
          }
        });
  }

  /**
   * Runs an INSERT of one row into a table with an auto-increment key, as {@link #execute}.
   *
   * @return the key the database generated (JDBC's {@code getGeneratedKeys})
   * @throws IllegalStateException when no key came back
   */
  public long insertReturningKey(DSLContext dsl, Object... values) {
    return dsl.connectionResult(
        connection -> {
          try (PreparedStatement statement =
              prepare(connection, Statement.RETURN_GENERATED_KEYS, values)) {
            statement.executeUpdate();
            try (ResultSet keys = statement.getGeneratedKeys()) {
              if (!keys.next()) {
                throw new IllegalStateException("no generated key: " + sql);
              }
              return keys.getLong(1);
            }
          }
        });
  }

  /**
   * Runs a SELECT on {@code dsl}'s connection and reads every row.
   *
   * @param values one per name given to {@link #of}, in that order
   * @return the rows, as records of the query's select fields
   */
  public Result<Record> fetch(DSLContext dsl, Object... values) {
    if (fields == null) {
      throw new IllegalStateException("not a SELECT: " + sql);
    }
    return dsl.connectionResult(
        connection -> {
          try (PreparedStatement statement = prepare(connection, values);
              ResultSet rows = statement.executeQuery()) {
            return dsl.fetch(rows, fields);
          }
        });
  }

  /**
   * As {@link #fetch}, for a SELECT that finds at most one row by its key (or whose first row is
   * wanted).
   *
   * @return the first row, or empty when there is none
   */
  public Optional<Record> fetchFirst(DSLContext dsl, Object... values) {
    Result<Record> rows = fetch(dsl, values);
    return rows.isEmpty() ? Optional.empty() : Optional.of(rows.getFirst());
  }

  /** The SQL as sent, with {@code ?} for every bind value. */
  String sql() {
    return sql;
  }

  private PreparedStatement prepare(Connection connection, Object[] values) throws SQLException {
    return prepare(connection, Statement.NO_GENERATED_KEYS, values);
  }

  private PreparedStatement prepare(Connection connection, int generatedKeys, Object[] values)
      throws SQLException {
    if (values.length != names.size()) {
      throw new IllegalArgumentException(
          "expected values for " + names + ", got " + values.length + ": " + sql);
    }
    PreparedStatement statement = connection.prepareStatement(sql, generatedKeys);
    try {
      for (int i = 0; i < slots.length; i++) {
        statement.setObject(i + 1, slots[i] < 0 ? constants[i] : values[slots[i]]);
      }
      return statement;
    } catch (SQLException | RuntimeException e) {
      statement.close();
      throw e;
    }
  }

  private static boolean isIndex(String token) {
    return token.chars().allMatch(Character::isDigit);
  }

  /**
   * The parameter names in {@code namedSql} in order of appearance ({@code :name}, or {@code :3}
   * for an unnamed value), skipping quoted literals and identifiers.
   */
  static List<String> parameterTokens(String namedSql) {
    List<String> tokens = new ArrayList<>();
    char quote = 0;
    for (int i = 0; i < namedSql.length(); i++) {
      char c = namedSql.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        }
      } else if (c == '\'' || c == '`' || c == '"') {
        quote = c;
      } else if (c == ':') {
        int end = i + 1;
        while (end < namedSql.length()
            && (Character.isLetterOrDigit(namedSql.charAt(end)) || namedSql.charAt(end) == '_')) {
          end++;
        }
        if (end > i + 1) {
          tokens.add(namedSql.substring(i + 1, end));
          i = end - 1;
        }
      }
    }
    return tokens;
  }
}
