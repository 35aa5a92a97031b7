package dev.payrelay.app.config.binder;

import dev.payrelay.app.config.mapping.PayrelayMapping;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Every setting of {@link PayrelayMapping}, found by reflection the way SmallRye Config names them
 * (kebab-case method names under the groups' names, {@code @WithName} where given), so the binder's
 * checks, {@code payrelay config} and the reference all read the same declarations.
 */
public final class SettingsModel {

  private static final List<Setting> SETTINGS = find();

  private SettingsModel() {}

  /** The settings, ordered by property name. */
  public static List<Setting> settings() {
    return SETTINGS;
  }

  /** The setting named {@code property} ({@code payrelay.api.port}), if there is one. */
  public static Optional<Setting> byProperty(String property) {
    return SETTINGS.stream().filter(s -> s.property().equals(property)).findFirst();
  }

  /**
   * The environment variable of {@code property}: {@code payrelay.db.pool-api} is {@code
   * PAYRELAY_DB_POOL_API}.
   */
  public static String envName(String property) {
    return property.replace('.', '_').replace('-', '_').toUpperCase(Locale.ROOT);
  }

  private static List<Setting> find() {
    String prefix = PayrelayMapping.class.getAnnotation(ConfigMapping.class).prefix();
    List<Setting> found = new ArrayList<>();
    collect(PayrelayMapping.class, prefix, List.of(), found);
    found.sort(Comparator.comparing(Setting::property));
    return List.copyOf(found);
  }

  private static void collect(Class<?> group, String prefix, List<Method> path, List<Setting> out) {
    for (Method m : group.getMethods()) {
      if (m.getParameterCount() != 0 || m.isDefault() || m.getDeclaringClass() == Object.class) {
        continue;
      }
      WithName given = m.getAnnotation(WithName.class);
      String name =
          prefix
              + "."
              + (given != null
                  ? given.value()
                  : ConfigMapping.NamingStrategy.KEBAB_CASE.apply(m.getName()));
      List<Method> at = new ArrayList<>(path);
      at.add(m);
      if (isGroup(m.getReturnType())) {
        collect(m.getReturnType(), name, at, out);
      } else {
        out.add(leaf(m, name, at));
      }
    }
  }

  private static boolean isGroup(Class<?> type) {
    return type.isInterface() && type.getPackage() == PayrelayMapping.class.getPackage();
  }

  private static Setting leaf(Method m, String name, List<Method> path) {
    Doc doc = m.getAnnotation(Doc.class);
    if (doc == null) {
      throw new IllegalStateException(name + " has no @Doc: every setting is described");
    }
    boolean optional = m.getReturnType() == Optional.class;
    Class<?> type = optional ? element(m.getGenericReturnType()) : wrap(m.getReturnType());
    WithDefault def = m.getAnnotation(WithDefault.class);
    return new Setting(
        name, envName(name), type, optional, def == null ? null : def.value(), doc, path);
  }

  private static Class<?> element(Type optional) {
    Type arg = ((ParameterizedType) optional).getActualTypeArguments()[0];
    return (Class<?>) arg;
  }

  private static Class<?> wrap(Class<?> type) {
    if (type == int.class) {
      return Integer.class;
    }
    if (type == boolean.class) {
      return Boolean.class;
    }
    if (type == long.class) {
      return Long.class;
    }
    return type;
  }
}
