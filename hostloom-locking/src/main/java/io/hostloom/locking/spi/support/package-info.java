/**
 * Shared rules for writing a {@link io.hostloom.locking.spi.LockBackend}: what every backend must
 * do the same way, written once.
 *
 * <ul>
 *   <li>{@link io.hostloom.locking.spi.support.SpiLimits}: the lengths every backend must accept;
 *   <li>{@link io.hostloom.locking.spi.support.BackendArguments}: the argument checks of every SPI
 *       call (null, empty, length, lease) and of a builder's duration settings;
 *   <li>{@link io.hostloom.locking.spi.support.LeaseRounding}: leases rounded <em>up</em> to a
 *       backend's resolution, never down to zero;
 *   <li>{@link io.hostloom.locking.spi.support.LeaseRules}: the lease decision table as pure
 *       functions (for backends with their own atomic step: a {@code compute}, a Lua script, an SQL
 *       statement);
 *   <li>{@link io.hostloom.locking.spi.support.VersionedRecordStore} and {@link
 *       io.hostloom.locking.spi.support.VersionedRecordLockBackend}: the versioned-record strategy
 *       for stores with compare-and-set (etcd, ZooKeeper, Azure Blob), and the one generic backend
 *       that owns the read-decide-conditional-write loop on it;
 *   <li>{@link io.hostloom.locking.spi.support.ReleaseWaitRegistry}: the pending waits of a {@link
 *       io.hostloom.locking.spi.ReleaseSignal} per key (await with a {@code maxWait} timer, wake
 *       one, wake all, wake every key after a reconnect, end all on close) with the one rounding
 *       rule of {@code maxWait}; every backend's release signal keeps its waits in one, whatever
 *       carries its announcements;
 *   <li>{@link io.hostloom.locking.spi.support.CallerWaits}: whether the calling thread blocks on
 *       the call it makes (the kernel's blocking forms, the WOPI provider), so a backend whose
 *       client blocks anyway may run it on that thread instead of a worker;
 *   <li>{@link io.hostloom.locking.spi.support.StartupWarmUp}: {@code hostloom.warm-up.*} at a
 *       framework's start-up (every backend that can warmed up at once, within one timeout, a
 *       failure logged and start-up going on), for the Spring Boot, Quarkus and Micronaut modules;
 *   <li>{@link io.hostloom.locking.spi.support.DelegatingLockBackend}: the five operations
 *       forwarded to another backend, for a public backend class around such a generic one (and the
 *       kernel's test decorators).
 * </ul>
 *
 * <p>Why a {@code support} package under {@code spi} rather than a module or the kernel: these are
 * helpers <em>for implementers</em> of the SPI, not part of the contract callers program against,
 * and not the kernel's engine; a sub-package keeps them next to the contract they implement
 * (ShedLock's {@code support} package plays the same role) without adding a dependency to any
 * backend. Backends are free not to use them, but then must keep the same rules themselves.
 *
 * <p>How to write a backend with these: {@code docs/writing-a-backend.md} in the repository.
 */
package io.hostloom.locking.spi.support;
