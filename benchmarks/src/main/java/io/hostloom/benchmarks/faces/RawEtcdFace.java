package io.hostloom.benchmarks.faces;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.Lease;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.PutOption;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * jetcd making the minimum requests a correct lock needs, one key per lock whose value is the owner
 * (the WOPI lock id) and which lives on an etcd lease of 30 s: acquire/lock = lease grant +
 * transaction putting the key only if it does not exist ({@code create_revision == 0}); release and
 * unlock = transaction deleting it only if its value is the caller's; refresh = one keep-alive of
 * the key's lease (the lease is the caller's, so nobody else's key is extended); relock = lease
 * grant + transaction putting the new value on the new lease only if the value is the old lock id;
 * get lock = one range read. Superseded leases are left to expire (no revoke), no fencing token, no
 * holder record on refusal.
 */
final class RawEtcdFace implements Face {
  private static final String OWNER = "0123456789abcdef0123456789abcdef";
  private static final long TTL_SECONDS = 30;
  private static final long TIMEOUT_SECONDS = 5;

  private final CountingInterceptor counter;
  private final Client client;
  private final KV kv;
  private final Lease lease;
  private final Map<String, Long> leases = new HashMap<>();

  RawEtcdFace(Client client, CountingInterceptor counter) {
    this.client = client;
    this.counter = counter;
    this.kv = client.getKVClient();
    this.lease = client.getLeaseClient();
  }

  private static ByteSequence bytes(String s) {
    return ByteSequence.from(s, StandardCharsets.UTF_8);
  }

  private static ByteSequence key(String k) {
    return bytes("raw/" + k);
  }

  private static <T> T get(CompletableFuture<T> f) throws Exception {
    return f.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
  }

  private void create(String k, String owner) throws Exception {
    long id = get(lease.grant(TTL_SECONDS)).getID();
    ByteSequence bk = key(k);
    boolean ok =
        get(kv.txn()
                .If(new Cmp(bk, Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
                .Then(Op.put(bk, bytes(owner), PutOption.builder().withLeaseId(id).build()))
                .commit())
            .isSucceeded();
    if (!ok) {
      throw new IllegalStateException("held");
    }
    leases.put(k, id);
  }

  private void delete(String k, String owner) throws Exception {
    ByteSequence bk = key(k);
    boolean ok =
        get(kv.txn()
                .If(new Cmp(bk, Cmp.Op.EQUAL, CmpTarget.value(bytes(owner))))
                .Then(Op.delete(bk, DeleteOption.DEFAULT))
                .commit())
            .isSucceeded();
    leases.remove(k);
    if (!ok) {
      throw new IllegalStateException("not the owner");
    }
  }

  @Override
  public void acquire(String k) throws Exception {
    create(k, OWNER);
  }

  @Override
  public void release(String k) throws Exception {
    delete(k, OWNER);
  }

  @Override
  public void lock(String file, String lockId) throws Exception {
    create(file, lockId);
  }

  @Override
  public void refresh(String file, String lockId) throws Exception {
    Long id = leases.get(file);
    if (id == null || get(lease.keepAliveOnce(id)).getTTL() <= 0) {
      throw new IllegalStateException("lease gone");
    }
  }

  @Override
  public String getLock(String file) throws Exception {
    GetResponse r = get(kv.get(key(file)));
    return r.getKvs().isEmpty()
        ? ""
        : r.getKvs().get(0).getValue().toString(StandardCharsets.UTF_8);
  }

  @Override
  public void relock(String file, String newLockId, String oldLockId) throws Exception {
    long id = get(lease.grant(TTL_SECONDS)).getID();
    ByteSequence bk = key(file);
    boolean ok =
        get(kv.txn()
                .If(new Cmp(bk, Cmp.Op.EQUAL, CmpTarget.value(bytes(oldLockId))))
                .Then(Op.put(bk, bytes(newLockId), PutOption.builder().withLeaseId(id).build()))
                .commit())
            .isSucceeded();
    if (!ok) {
      throw new IllegalStateException("not the owner");
    }
    leases.put(file, id);
  }

  @Override
  public void unlock(String file, String lockId) throws Exception {
    delete(file, lockId);
  }

  @Override
  public long roundTrips() {
    return counter.roundTrips();
  }

  @Override
  public long requests() {
    return counter.requests();
  }

  @Override
  public void close() {
    client.close();
  }
}
