package dev.payrelay.app.config.binder;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * What a setting of the configuration mapping ({@code dev.payrelay.app.config.mapping}) means and
 * which values it takes, beside its type and its {@code @WithDefault}: the binder checks the bounds
 * at start ({@link SettingsCheck}), {@code payrelay config} masks what {@link #mask} says, and the
 * configuration reference ({@link ConfigurationReference}) prints all of it. A setting is declared
 * once, here; nothing else describes it.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Doc {

  /** The description, one or more sentences; what the setting does, its unit and its source. */
  String value();

  /**
   * The smallest value, in the setting's own syntax (e.g. {@code 1}, {@code 1s}); none if empty.
   */
  String min() default "";

  /** The largest value, in the setting's own syntax; none if empty. */
  String max() default "";

  /**
   * The step every value must be a whole multiple of, in the setting's syntax (e.g. {@code 1s} for
   * a duration the database takes in whole seconds); any if empty.
   */
  String step() default "";

  /**
   * The default in words when it is not one value but follows from other settings (for an optional
   * setting without {@code @WithDefault}), e.g. {@code http://<api host>:<api port>}.
   */
  String byDefault() default "";

  /** The syntax in words when the type alone does not say it, e.g. {@code queue=pattern,...}. */
  String syntax() default "";

  /** How {@code payrelay config} shows the value. */
  Mask mask() default Mask.NONE;

  /** How a value is shown. */
  enum Mask {
    /** As it is. */
    NONE,
    /** Never: a secret, shown as {@code ****} when set. */
    SECRET,
    /** With the password of its user-info or {@code password=} parameters masked (a URL). */
    URL_PASSWORD
  }
}
