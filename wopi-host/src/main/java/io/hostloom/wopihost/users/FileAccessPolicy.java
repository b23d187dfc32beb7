package io.hostloom.wopihost.users;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The default {@link AccessPolicy}: rules from a text file ({@code wopi-host.users-file}), read
 * once at start-up. One rule a line, {@code #} starts a comment:
 *
 * <pre>
 * grant alice root all              # alice may do everything everywhere
 * grant bob   root read             # bob reads everything...
 * grant bob   c3f9a1 read write     # ...and writes in folder c3f9a1 and below
 * grant *     root read             # every other user a token names reads everything
 * name  alice Alice Liddell         # UserFriendlyName
 * </pre>
 *
 * A folder's rights are those of the user's nearest own rule on the folder or an ancestor; only a
 * user without any own rule on that path gets the nearest {@code *} rule. A nearer rule replaces,
 * not adds to, a farther one, so {@code grant bob c3f9a1 none} takes rights away below. No rule: no
 * rights.
 */
public final class FileAccessPolicy implements AccessPolicy {
  /** Anyone a valid token names. */
  public static final String ANY_USER = "*";

  private final Map<String, Map<String, Set<Right>>> grants; // user -> folder -> rights
  private final Map<String, String> names;

  private FileAccessPolicy(Map<String, Map<String, Set<Right>>> grants, Map<String, String> names) {
    this.grants = grants;
    this.names = names;
  }

  /** The embedded default: every user a valid token names has every right everywhere. */
  public static FileAccessPolicy everyoneMayDoEverything() {
    return parse(List.of("grant * root all"));
  }

  /**
   * The rules of {@code file}.
   *
   * @throws UncheckedIOException when it cannot be read
   * @throws IllegalArgumentException when a line is malformed (the message names it)
   */
  public static FileAccessPolicy load(Path file) {
    try {
      return parse(Files.readAllLines(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read wopi-host.users-file " + file, e);
    }
  }

  /**
   * The rules of {@code lines} (the file format above).
   *
   * @throws IllegalArgumentException when a line is malformed
   */
  public static FileAccessPolicy parse(List<String> lines) {
    Map<String, Map<String, Set<Right>>> grants = new HashMap<>();
    Map<String, String> names = new HashMap<>();
    int n = 0;
    for (String raw : lines) {
      n++;
      int hash = raw.indexOf('#');
      String line = (hash < 0 ? raw : raw.substring(0, hash)).strip();
      if (line.isEmpty()) {
        continue;
      }
      String[] f = line.split("\\s+");
      if (f[0].equals("grant") && f.length >= 4) {
        Set<Right> rights = EnumSet.noneOf(Right.class);
        try {
          for (int i = 3; i < f.length; i++) {
            for (String r : f[i].split(",")) {
              if (!r.isEmpty()) {
                rights.addAll(Right.parse(r));
              }
            }
          }
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("line " + n + ": " + e.getMessage(), e);
        }
        grants.computeIfAbsent(f[1], k -> new HashMap<>()).put(f[2], Set.copyOf(rights));
      } else if (f[0].equals("name") && f.length >= 3) {
        names.put(f[1], line.substring(line.indexOf(f[1], 4) + f[1].length()).strip());
      } else {
        throw new IllegalArgumentException(
            "line "
                + n
                + ": expected 'grant <user> <folder id> <rights...>' or 'name <user> <name>' but"
                + " was '"
                + line
                + "'");
      }
    }
    return new FileAccessPolicy(grants, names);
  }

  @Override
  public Set<Right> rights(String user, List<String> folderPath) {
    Set<Right> own = nearest(grants.getOrDefault(user, Map.of()), folderPath);
    return own != null ? own : nearestOrNone(grants.getOrDefault(ANY_USER, Map.of()), folderPath);
  }

  private static Set<Right> nearestOrNone(Map<String, Set<Right>> rules, List<String> path) {
    Set<Right> r = nearest(rules, path);
    return r == null ? Set.of() : r;
  }

  /** The rights of the rule nearest the end of {@code path}; null when none applies. */
  private static Set<Right> nearest(Map<String, Set<Right>> rules, List<String> path) {
    for (int i = path.size() - 1; i >= 0; i--) {
      Set<Right> r = rules.get(path.get(i));
      if (r != null) {
        return r;
      }
    }
    return null;
  }

  @Override
  public String friendlyName(String user) {
    return names.getOrDefault(user, user);
  }
}
