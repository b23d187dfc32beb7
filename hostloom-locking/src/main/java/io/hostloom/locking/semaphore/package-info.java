/**
 * Distributed counting semaphores on the lock kernel: {@link
 * io.hostloom.locking.semaphore.DistributedSemaphores} builds one {@link
 * io.hostloom.locking.semaphore.DistributedSemaphore} per name and permit count over any {@link
 * io.hostloom.locking.spi.LockBackend}. Every permit is a kernel lease on one of the name's slot
 * keys, or on an entry of the name's one key where the backend offers {@link
 * io.hostloom.locking.spi.PermitLeases}; see the module README ("Semaphores") for the design and
 * its limits.
 */
package io.hostloom.locking.semaphore;
