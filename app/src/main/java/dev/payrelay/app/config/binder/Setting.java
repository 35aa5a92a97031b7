package dev.payrelay.app.config.binder;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Optional;

/**
 * One setting of the mapping, as {@link SettingsModel} finds it: its names, its type, its default
 * and its {@link Doc}.
 *
 * @param property its name in the file, e.g. {@code payrelay.api.port}
 * @param env its environment variable, e.g. {@code PAYRELAY_API_PORT}
 * @param type the value's class (the element of an {@code Optional}; a primitive's wrapper)
 * @param optional whether the mapping method returns an {@code Optional} (no value when unset)
 * @param defaultValue its {@code @WithDefault}, or null
 * @param doc its description, bounds and masking
 * @param path the mapping methods from the root that lead to it
 */
public record Setting(
    String property,
    String env,
    Class<?> type,
    boolean optional,
    String defaultValue,
    Doc doc,
    List<Method> path) {

  /** Copies the path. */
  public Setting {
    path = List.copyOf(path);
  }

  /** Whether {@code payrelay config} never shows the value. */
  public boolean secret() {
    return doc.mask() == Doc.Mask.SECRET;
  }

  /** The type in words, as the reference and messages name it. */
  public String typeName() {
    if (!doc.syntax().isEmpty()) {
      return doc.syntax();
    }
    if (type == dev.payrelay.app.config.Profile.class) {
      return String.join(" | ", PayrelayConverters.PROFILES.names());
    }
    if (type.isEnum()) {
      return String.join(" | ", choices(type.asSubclass(Enum.class)));
    }
    return switch (type.getSimpleName()) {
      case "Boolean" -> "true | false";
      case "Integer" -> "integer";
      case "Duration" -> "duration";
      case "ByteSize" -> "size";
      case "DurationList" -> "durations";
      case "Path" -> "file";
      case "URI" -> "URL";
      case "ZoneId" -> "time zone";
      default -> "text";
    };
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static List<String> choices(Class<? extends Enum> type) {
    return Choice.of((Class) type).names();
  }

  /** The default as the reference and {@code payrelay config} state it. */
  public String defaultText() {
    if (defaultValue != null) {
      return defaultValue;
    }
    return doc.byDefault().isEmpty() ? "unset" : doc.byDefault();
  }

  /**
   * This setting's value in {@code root} (a mapping instance), unwrapped from its {@code Optional};
   * null when unset.
   */
  public Object valueIn(Object root) {
    Object node = root;
    try {
      for (Method m : path) {
        node = m.invoke(node);
      }
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("cannot read " + property + " from the mapping", e);
    }
    return node instanceof Optional<?> o ? o.orElse(null) : node;
  }
}
