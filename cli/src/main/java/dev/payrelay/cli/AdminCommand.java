package dev.payrelay.cli;

import picocli.CommandLine.Command;

/**
 * {@code payrelay admin}: operator views ({@code payrelay admin payments}) and signal tokens for
 * fixes sent from the Temporal UI ({@code payrelay admin sign-signal}).
 */
@Command(
    name = "admin",
    mixinStandardHelpOptions = true,
    description = "Operator views of payrelay's state and signal tokens, through the admin API.",
    subcommands = {AdminPaymentsCommand.class, AdminSignSignalCommand.class})
final class AdminCommand extends CommandGroup {}
