package dev.payrelay.tools.bench;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jooq.ConnectionProvider;

/**
 * A jOOQ {@link ConnectionProvider} that hands out its delegate's connections wrapped so that every
 * statement sent on them is recorded as it was sent: which checkout of a connection it ran on, how
 * it was prepared (the JDBC method and its arguments, the SQL text among them), its bind calls
 * ({@code setString(1, ...)} ...) and how it was executed. Plain statements ({@code
 * createStatement().execute(sql)}, e.g. {@code START TRANSACTION}) are recorded with their SQL.
 * What it records is replayed by {@link RecordedStatement#replay}. Recording is on between {@link
 * #start} and {@link #stop}; not thread-safe (one caller records at a time).
 */
final class StatementRecorder implements ConnectionProvider {

  private final ConnectionProvider delegate;
  private final List<RecordedStatement> recorded = new ArrayList<>();
  private boolean on;
  private int checkouts;

  /** A recorder of {@code delegate}'s connections (e.g. a {@code Database}'s pool). */
  StatementRecorder(ConnectionProvider delegate) {
    this.delegate = delegate;
  }

  /** Clears what was recorded and records from now on. */
  void start() {
    recorded.clear();
    on = true;
  }

  /** Stops recording; gives what was recorded since {@link #start}, in order. */
  List<RecordedStatement> stop() {
    on = false;
    return List.copyOf(recorded);
  }

  @Override
  public Connection acquire() {
    Connection real = delegate.acquire();
    int checkout = ++checkouts;
    return proxy(
        Connection.class,
        real,
        (method, args, result) -> connection(checkout, method, args, result));
  }

  @Override
  public void release(Connection connection) {
    delegate.release((Connection) ((Forwarding) Proxy.getInvocationHandler(connection)).target());
  }

  /** What a proxy does after forwarding a call: wrap what it returned, or record. */
  private interface After {
    Object returned(Method method, Object[] args, Object result) throws Exception;
  }

  private Object connection(int checkout, Method method, Object[] args, Object result) {
    if (result instanceof PreparedStatement ps && method.getName().startsWith("prepare")) {
      List<RecordedStatement.Call> binds = new ArrayList<>();
      RecordedStatement.Call prepare = new RecordedStatement.Call(method, copy(args));
      return proxy(
          PreparedStatement.class,
          ps,
          (m, a, r) -> {
            if (on && m.getName().startsWith("set") && a != null && a.length >= 2) {
              binds.add(new RecordedStatement.Call(m, copy(a)));
            } else if (on && m.getName().startsWith("execute") && (a == null || a.length == 0)) {
              recorded.add(
                  RecordedStatement.prepared(
                      checkout,
                      prepare,
                      List.copyOf(binds),
                      new RecordedStatement.Call(m, copy(a)),
                      r));
            }
            return r;
          });
    }
    if (result instanceof Statement s && method.getName().equals("createStatement")) {
      return proxy(
          Statement.class,
          s,
          (m, a, r) -> {
            if (on
                && m.getName().startsWith("execute")
                && a != null
                && a[0] instanceof String sql) {
              recorded.add(RecordedStatement.plain(checkout, sql));
            }
            return r;
          });
    }
    return result;
  }

  private static Object[] copy(Object[] args) {
    return args == null ? new Object[0] : Arrays.copyOf(args, args.length);
  }

  /** Forwards every call to {@code target}, then lets {@code after} see or wrap the result. */
  private record Forwarding(Object target, After after) implements InvocationHandler {
    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      Object result;
      try {
        result = method.invoke(target, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
      return after.returned(method, args, result);
    }
  }

  private static <T> T proxy(Class<T> type, Object target, After after) {
    return type.cast(
        Proxy.newProxyInstance(
            StatementRecorder.class.getClassLoader(),
            new Class<?>[] {type},
            new Forwarding(target, after)));
  }
}
