package dev.payrelay.app.config.binder;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The syntax of a setting that takes one of a few words, read into an enum: the constant's name in
 * lower case with {@code -} for {@code _}, any case accepted ({@code json}, {@code JSON}; {@code
 * revoke-all}, {@code REVOKE_ALL}).
 *
 * @param type the enum
 * @param allowed the constants a value may name, in the order messages list them
 * @param <E> the enum
 */
public record Choice<E extends Enum<E>>(Class<E> type, Set<E> allowed) {

  /** Copies the allowed constants. */
  public Choice {
    allowed = Set.copyOf(allowed);
  }

  /** Every constant of {@code type}. */
  public static <E extends Enum<E>> Choice<E> of(Class<E> type) {
    return new Choice<>(type, EnumSet.allOf(type));
  }

  /** The constant {@code text} names. */
  public E parse(String text) {
    String word = text.trim().toLowerCase(Locale.ROOT).replace('_', '-');
    for (E e : words()) {
      if (word(e).equals(word)) {
        return e;
      }
    }
    throw new IllegalArgumentException("must be one of " + String.join(", ", names()));
  }

  /** The words a value may be, in declaration order. */
  public List<String> names() {
    return words().stream().map(Choice::word).toList();
  }

  /** The word of {@code e}: its name in lower case, {@code -} for {@code _}. */
  public static String word(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  private List<E> words() {
    return EnumSet.copyOf(allowed).stream().toList();
  }
}
