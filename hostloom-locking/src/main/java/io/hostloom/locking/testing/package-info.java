/**
 * Test doubles for code that uses the kernel, shipped in the kernel jar as Micrometer ships {@code
 * MockClock}: {@link io.hostloom.locking.testing.ManualLockClock} (time moves only when the test
 * says so; timers run on the advancing thread), {@link
 * io.hostloom.locking.testing.ForwardingLockBackend} (a decorator base), {@link
 * io.hostloom.locking.testing.CountingLockBackend} (calls per operation) and {@link
 * io.hostloom.locking.testing.FaultInjectingLockBackend} (failures, held replies and held requests
 * per operation). They depend on the kernel only (no JUnit), so the kernel's own tests, the
 * testkit's conformance suites and every module's tests use the same classes.
 *
 * <p>Why here and not in {@code hostloom-locking-testkit}: the testkit depends on the kernel, so
 * the kernel's tests could not use doubles that live in the testkit (a Maven cycle), and keeping
 * those tests in the testkit split the {@code io.hostloom.locking} package over two jars. Nothing
 * in the kernel's main code uses this package.
 */
package io.hostloom.locking.testing;
