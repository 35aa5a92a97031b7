package dev.payrelay.app.config.binder;

import dev.payrelay.app.config.Profile;
import dev.payrelay.app.config.mapping.CodecAuth;
import dev.payrelay.app.config.mapping.LogFormat;
import dev.payrelay.app.config.mapping.LogLevel;
import dev.payrelay.app.config.mapping.PartialRefundGrants;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.temporal.serviceclient.GrpcCompression;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.EnumSet;

/**
 * The converters of every setting type, registered over SmallRye Config's own so each type has the
 * one syntax of {@link Syntax}: SmallRye's boolean converter takes {@code yes}, {@code on} and
 * {@code 1} for true and anything else for false, and its implicit {@link Duration} converter is
 * ISO-8601's {@code Duration.parse}.
 */
public final class PayrelayConverters {

  /** Above SmallRye's built-in and implicit converters (which have priority 100 or less). */
  private static final int PRIORITY = 200;

  /** {@code PAYRELAY_PROFILE}'s words: {@link Profile#AUTO} is the profile of no setting. */
  public static final Choice<Profile> PROFILES =
      new Choice<>(Profile.class, EnumSet.of(Profile.DEV, Profile.TEST, Profile.PROD));

  private PayrelayConverters() {}

  /** Registers the converters on {@code builder}. */
  public static SmallRyeConfigBuilder register(SmallRyeConfigBuilder builder) {
    return builder
        .withConverter(Boolean.class, PRIORITY, Syntax::bool)
        .withConverter(Integer.class, PRIORITY, Syntax::integer)
        .withConverter(Duration.class, PRIORITY, Syntax::duration)
        .withConverter(ByteSize.class, PRIORITY, Syntax::size)
        .withConverter(DurationList.class, PRIORITY, Syntax::durations)
        .withConverter(URI.class, PRIORITY, PayrelayConverters::uri)
        .withConverter(ZoneId.class, PRIORITY, PayrelayConverters::zone)
        .withConverter(Profile.class, PRIORITY, PROFILES::parse)
        .withConverter(LogFormat.class, PRIORITY, Choice.of(LogFormat.class)::parse)
        .withConverter(LogLevel.class, PRIORITY, Choice.of(LogLevel.class)::parse)
        .withConverter(CodecAuth.class, PRIORITY, Choice.of(CodecAuth.class)::parse)
        .withConverter(GrpcCompression.class, PRIORITY, Choice.of(GrpcCompression.class)::parse)
        .withConverter(
            PartialRefundGrants.class, PRIORITY, Choice.of(PartialRefundGrants.class)::parse);
  }

  private static URI uri(String text) {
    try {
      URI uri = new URI(text.trim());
      if (uri.getScheme() == null) {
        throw new URISyntaxException(text, "no scheme");
      }
      return uri;
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("must be an absolute URL such as https://host:port");
    }
  }

  private static ZoneId zone(String text) {
    try {
      return ZoneId.of(text.trim());
    } catch (DateTimeException e) {
      throw new IllegalArgumentException("must be a time zone id such as UTC or Asia/Shanghai");
    }
  }
}
