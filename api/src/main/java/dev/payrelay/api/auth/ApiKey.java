package dev.payrelay.api.auth;

import java.util.Set;

/**
 * One configured API key, as stored: never the key itself, only its SHA-256.
 *
 * @param id the key's public id, the part of the token between {@code prk_} and the next {@code _}
 *     ({@code [a-z0-9]{4,32}}); it appears in logs, the secret part never does
 * @param role what the key may do
 * @param operator who acts with it: the name written in every audit row of its actions ({@code
 *     [A-Za-z0-9._@-]{1,64}})
 * @param tenants the tenants whose payments it may see and act on; {@link #ALL_TENANTS} alone for
 *     every tenant (needed by the endpoints that span tenants: outbox listing and replay,
 *     reconciliations)
 * @param sha256 the SHA-256 (FIPS 180-4) of the whole token, 32 bytes
 */
public record ApiKey(String id, Role role, String operator, Set<String> tenants, byte[] sha256) {

  /** The tenants entry that stands for every tenant. */
  public static final String ALL_TENANTS = "*";

  /** Copies the tenants. */
  public ApiKey {
    tenants = Set.copyOf(tenants);
    sha256 = sha256.clone();
  }

  /** Whether the key may see and act on every tenant's payments. */
  public boolean allTenants() {
    return tenants.contains(ALL_TENANTS);
  }

  /** Whether the key may see and act on {@code tenant}'s payments. */
  public boolean mayActFor(String tenant) {
    return allTenants() || tenants.contains(tenant);
  }

  @Override
  public byte[] sha256() {
    return sha256.clone();
  }

  @Override
  public String toString() {
    return "ApiKey[" + id + ", " + role.label() + ", " + operator + ", " + tenants + "]";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ApiKey k
        && id.equals(k.id)
        && role == k.role
        && operator.equals(k.operator)
        && tenants.equals(k.tenants)
        && java.util.Arrays.equals(sha256, k.sha256);
  }

  @Override
  public int hashCode() {
    return id.hashCode();
  }
}
