package io.hostloom.wopi;

import java.util.Optional;

/**
 * Finds a string-valued property at the top level of a JSON object, without a JSON library. The
 * whole text is checked against RFC 8259 first: a malformed document has no properties.
 *
 * <p>Rules, chosen to match the reference comparer (System.Text.Json's defaults):
 *
 * <ul>
 *   <li>the text must start with <code>{</code> (no leading whitespace, no byte-order mark) and be
 *       one object, optionally followed by JSON whitespace;
 *   <li>property names match ordinally and case-sensitively, after unescaping;
 *   <li>when a name occurs more than once, the last occurrence wins (also when it is not a string);
 *   <li>only a JSON string counts: a number, {@code true} or {@code null} under that name does not;
 *   <li>every escape is decoded ({@code \" \\ \/ \b \f \n \r \t \}{@code uXXXX}, surrogate pairs);
 *       a string holding an unpaired surrogate, a raw control character or a bad escape makes the
 *       document malformed;
 *   <li>more than {@value #MAX_DEPTH} nested objects and arrays (the top-level object included)
 *       make the document malformed.
 * </ul>
 */
final class JsonStringProperty {
  static final int MAX_DEPTH = 64;

  private final String text;
  private int pos;

  private JsonStringProperty(String text) {
    this.text = text;
  }

  /**
   * The unescaped value of the top-level string property {@code name} of the JSON object {@code
   * json}; empty when {@code json} is not a well-formed JSON object or has no such string property.
   */
  static Optional<String> find(String json, String name) {
    if (json == null || json.isEmpty() || json.charAt(0) != '{') {
      return Optional.empty();
    }
    try {
      return Optional.ofNullable(new JsonStringProperty(json).topLevel(name));
    } catch (Malformed e) {
      return Optional.empty();
    }
  }

  private String topLevel(String name) {
    pos = 1;
    String found = null;
    skipWhitespace();
    if (peek() == '}') {
      pos++;
    } else {
      while (true) {
        expect('"');
        String key = string();
        skipWhitespace();
        expect(':');
        skipWhitespace();
        boolean isString = peek() == '"';
        String value = isString ? stringValue() : null;
        if (!isString) {
          value(2);
        }
        if (key.equals(name)) {
          found = value; // last occurrence wins, a non-string one included
        }
        skipWhitespace();
        char c = next();
        if (c == '}') {
          break;
        }
        if (c != ',') {
          throw new Malformed();
        }
        skipWhitespace();
      }
    }
    skipWhitespace();
    if (pos != text.length()) {
      throw new Malformed();
    }
    return found;
  }

  /** Skips one value; {@code depth} is the nesting level a container starting here would have. */
  private void value(int depth) {
    char c = peek();
    switch (c) {
      case '{' -> object(depth);
      case '[' -> array(depth);
      case '"' -> stringValue();
      case 't' -> literal("true");
      case 'f' -> literal("false");
      case 'n' -> literal("null");
      default -> {
        if (c == '-' || isDigit(c)) {
          number();
        } else {
          throw new Malformed();
        }
      }
    }
  }

  private void object(int depth) {
    enter(depth);
    skipWhitespace();
    if (peek() == '}') {
      pos++;
      return;
    }
    while (true) {
      expect('"');
      string();
      skipWhitespace();
      expect(':');
      skipWhitespace();
      value(depth + 1);
      skipWhitespace();
      char c = next();
      if (c == '}') {
        return;
      }
      if (c != ',') {
        throw new Malformed();
      }
      skipWhitespace();
    }
  }

  private void array(int depth) {
    enter(depth);
    skipWhitespace();
    if (peek() == ']') {
      pos++;
      return;
    }
    while (true) {
      value(depth + 1);
      skipWhitespace();
      char c = next();
      if (c == ']') {
        return;
      }
      if (c != ',') {
        throw new Malformed();
      }
      skipWhitespace();
    }
  }

  /** Consumes a container's opening bracket, failing beyond {@link #MAX_DEPTH} levels. */
  private void enter(int depth) {
    if (depth > MAX_DEPTH) {
      throw new Malformed();
    }
    pos++;
  }

  private String stringValue() {
    expect('"');
    return string();
  }

  /** Reads the rest of a string whose opening quote was consumed; returns it unescaped. */
  private String string() {
    StringBuilder out = new StringBuilder();
    while (true) {
      char c = next();
      if (c == '"') {
        break;
      }
      if (c < 0x20) {
        throw new Malformed();
      }
      if (c != '\\') {
        out.append(c);
        continue;
      }
      char e = next();
      switch (e) {
        case '"', '\\', '/' -> out.append(e);
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'u' -> out.append(hex4());
        default -> throw new Malformed();
      }
    }
    requireWellFormedUtf16(out);
    return out.toString();
  }

  private char hex4() {
    int v = 0;
    for (int i = 0; i < 4; i++) {
      int d = Character.digit(next(), 16);
      if (d < 0) {
        throw new Malformed();
      }
      v = v * 16 + d;
    }
    return (char) v;
  }

  private static void requireWellFormedUtf16(CharSequence s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)) {
        if (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
          throw new Malformed();
        }
        i++;
      } else if (Character.isLowSurrogate(c)) {
        throw new Malformed();
      }
    }
  }

  private void number() {
    if (peek() == '-') {
      pos++;
    }
    if (peek() == '0') {
      pos++;
    } else {
      digits();
    }
    if (peek() == '.') {
      pos++;
      digits();
    }
    if (peek() == 'e' || peek() == 'E') {
      pos++;
      if (peek() == '+' || peek() == '-') {
        pos++;
      }
      digits();
    }
  }

  /** One or more decimal digits. */
  private void digits() {
    if (!isDigit(peek())) {
      throw new Malformed();
    }
    while (isDigit(peek())) {
      pos++;
    }
  }

  private void literal(String word) {
    if (!text.startsWith(word, pos)) {
      throw new Malformed();
    }
    pos += word.length();
  }

  private void skipWhitespace() {
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      pos++;
    }
  }

  private void expect(char c) {
    if (next() != c) {
      throw new Malformed();
    }
  }

  /** The next character without consuming it; {@code '\0'} at the end (never valid there). */
  private char peek() {
    return pos < text.length() ? text.charAt(pos) : '\0';
  }

  private char next() {
    if (pos >= text.length()) {
      throw new Malformed();
    }
    return text.charAt(pos++);
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** Control flow for "not well-formed"; never escapes this class, so it carries no stack. */
  private static final class Malformed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Malformed() {
      super("malformed JSON", null, false, false);
    }
  }
}
