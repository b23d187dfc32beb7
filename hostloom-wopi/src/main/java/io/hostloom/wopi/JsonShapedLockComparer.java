package io.hostloom.wopi;

import java.util.Objects;
import java.util.Optional;

/** {@link WopiLockComparer#jsonShaped()}. */
enum JsonShapedLockComparer implements WopiLockComparer {
  INSTANCE;

  static final String TAG = "s:";

  @Override
  public String identity(String lockId) {
    Objects.requireNonNull(lockId, "lockId");
    Optional<String> s = JsonStringProperty.find(lockId, "S");
    return s.map(v -> TAG + escape(v)).orElseGet(() -> OrdinalLockComparer.TAG + lockId);
  }

  /**
   * Keeps the identity printable ASCII (storable by every backend) and injective: printable ASCII
   * stays, a backslash doubles, {@code \b \f \n \r \t} get their two-character escapes and anything
   * else becomes {@code \}{@code uXXXX}. So the escaped value is never longer than the JSON text it
   * was decoded from (each character needs at least as long an escape in JSON), and an identity
   * stays within 2 + {@value WopiLockIds#MAX_LENGTH} characters.
   */
  static String escape(String value) {
    StringBuilder out = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '\\' -> out.append("\\\\");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c >= 0x20 && c <= 0x7E) {
            out.append(c);
          } else {
            out.append(String.format("\\u%04x", (int) c));
          }
        }
      }
    }
    return out.toString();
  }

  @Override
  public String toString() {
    return "WopiLockComparer.jsonShaped()";
  }
}
