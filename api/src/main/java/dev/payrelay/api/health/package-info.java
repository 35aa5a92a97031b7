/**
 * A process's readiness from background checks of its dependencies ({@link
 * dev.payrelay.api.health.Readiness}), which {@code /health/ready} reports.
 */
package dev.payrelay.api.health;
