package io.hostloom.locking;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * Mints owner tokens: 128 unpredictable bits per acquisition, as 32 lowercase hex characters.
 *
 * <p><b>How.</b> AES-128 in counter mode under a key drawn from {@link SecureRandom} when the lock
 * is built (the construction of NIST SP 800-90A's CTR_DRBG, without its reseeding): token {@code i}
 * is {@code AES_key(i || nanoTime)}. Without the key, a token cannot be told from 128 random bits,
 * also by someone who has seen every earlier token (AES is a pseudorandom permutation); the
 * distinguishing advantage after q tokens is at most about q²/2^129. Distinct blocks under one key
 * give distinct tokens, so one lock never repeats a token; two locks repeat one with a 2^-128
 * chance per pair, as before. The time in the block makes a cloned or restored JVM (same key, same
 * counter) mint tokens that differ from the original's unless both draw at the same nanosecond.
 *
 * <p><b>Why not {@code SecureRandom} per token.</b> The platform's {@code NativePRNG} mixes every
 * call through SHA1PRNG: about 0.7 µs and 64 B per token here, the largest part of the kernel's
 * per-acquisition cost; one AES block is about 50 ns and allocates nothing.
 */
final class OwnerTokens {
  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.ISO_8859_1);

  private final Cipher aes; // guarded by this
  private final byte[] block = new byte[16]; // guarded by this
  private final byte[] out = new byte[16]; // guarded by this
  // the hex digits, reused: the String copies them, so a token costs only its String and bytes
  private final byte[] hex = new byte[32]; // guarded by this
  private long counter; // guarded by this

  OwnerTokens() {
    byte[] key = new byte[16];
    new SecureRandom().nextBytes(key);
    try {
      // every Java SE platform must support AES/ECB/NoPadding with 128-bit keys
      aes = Cipher.getInstance("AES/ECB/NoPadding");
      aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES/ECB/NoPadding is not available", e);
    }
  }

  /** A fresh token. Thread-safe. */
  String next() {
    byte[] b = hex;
    synchronized (this) {
      long c = ++counter;
      long t = System.nanoTime();
      for (int i = 0; i < 8; i++) {
        block[i] = (byte) (c >>> (8 * i));
        block[8 + i] = (byte) (t >>> (8 * i));
      }
      try {
        aes.doFinal(block, 0, 16, out, 0);
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("AES failed on one block", e); // never: no padding
      }
      for (int i = 0; i < 16; i++) {
        b[2 * i] = HEX[(out[i] >> 4) & 0xF];
        b[2 * i + 1] = HEX[out[i] & 0xF];
      }
      return new String(b, StandardCharsets.ISO_8859_1);
    }
  }
}
