package io.hostloom.cli;

import java.util.Locale;
import java.util.Map;

/** The one-line JSON objects of {@code --json}: string, number, boolean and null values. */
final class Json {
  private Json() {}

  /** {@code fields} in their iteration order. */
  static String object(Map<String, ?> fields) {
    StringBuilder sb = new StringBuilder("{");
    for (Map.Entry<String, ?> e : fields.entrySet()) {
      if (sb.length() > 1) {
        sb.append(',');
      }
      string(sb, e.getKey()).append(':');
      Object v = e.getValue();
      if (v == null || v instanceof Number || v instanceof Boolean) {
        sb.append(v);
      } else {
        string(sb, v.toString());
      }
    }
    return sb.append('}').toString();
  }

  private static StringBuilder string(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) {
            sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    return sb.append('"');
  }
}
