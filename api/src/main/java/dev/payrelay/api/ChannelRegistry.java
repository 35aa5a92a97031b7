package dev.payrelay.api;

import dev.payrelay.domain.channel.PaymentChannel;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The channel adapters this deployment speaks, by {@link PaymentChannel#name()}. */
public final class ChannelRegistry {

  private final Map<String, PaymentChannel> byName;

  /**
   * A registry of {@code channels}.
   *
   * @throws IllegalStateException if two channels share a name
   */
  public ChannelRegistry(List<PaymentChannel> channels) {
    this.byName =
        channels.stream()
            .collect(Collectors.toUnmodifiableMap(PaymentChannel::name, Function.identity()));
  }

  /** The channel named {@code name}, if configured. */
  public Optional<PaymentChannel> find(String name) {
    return Optional.ofNullable(byName.get(name));
  }
}
