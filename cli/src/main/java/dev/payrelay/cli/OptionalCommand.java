package dev.payrelay.cli;

/**
 * A {@code payrelay} subcommand that lives outside the {@code cli} module ({@code dev}, {@code
 * demo}, {@code sandbox} in {@code devstack}; {@code soak}, {@code bench} in {@code tools}) and is
 * found through {@link java.util.ServiceLoader} ({@code
 * META-INF/services/dev.payrelay.cli.OptionalCommand}), so the production jar can leave them out.
 * Implementations are picocli {@code @Command} classes with a public no-argument constructor whose
 * name is one of {@link PayrelayCommand#OPTIONAL}.
 */
public interface OptionalCommand {}
