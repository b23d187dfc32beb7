package io.hostloom.locking;

/**
 * What an acquisition hands to the {@link LeaseHandle} it grants.
 *
 * @param key the consumer key
 * @param backendKey the key the backend sees
 * @param owner the owner token
 * @param fencingToken the backend's token of this grant
 * @param leaseNanos the granted lease
 * @param acquisitionStartNanos when the acquisition started
 * @param requestNanos when the granting attempt was sent: the lease counts from here
 * @param attempts attempts the acquisition made
 * @param hold how the grant is kept
 */
record Grant(
    String key,
    String backendKey,
    String owner,
    long fencingToken,
    long leaseNanos,
    long acquisitionStartNanos,
    long requestNanos,
    int attempts,
    HoldPolicy hold) {}
