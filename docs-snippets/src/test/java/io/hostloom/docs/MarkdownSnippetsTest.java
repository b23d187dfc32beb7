package io.hostloom.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataProperty;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataRepositoryJsonBuilder;
import org.yaml.snakeyaml.Yaml;

/**
 * Snippets that cannot rot. Every {@code java} block in README.md, the module READMEs, the
 * examples' READMEs and docs/ is preceded by one of
 *
 * <ul>
 *   <li>{@code <!-- snippet: <path>#<region> -->}: the block is the region between {@code //
 *       snippet:<region>} and {@code // end:<region>} of that file (under this module's tested
 *       sources), character for character;
 *   <li>{@code <!-- fragment -->}: a part of a program (no imports, names the reader supplies),
 *       shown to explain, not to paste as is.
 * </ul>
 *
 * A block of another language (a {@code kotlin} example) with a snippet marker is checked the same
 * way. Every {@code yaml}/{@code properties} block not marked as a fragment is parsed, and each of
 * its {@code hostloom.*} keys must be a property the starter publishes in its metadata.
 */
class MarkdownSnippetsTest {
  static final Path ROOT = Path.of(System.getProperty("hostloom.docs.root", "..")).normalize();
  static final Pattern FENCE = Pattern.compile("^(\\s*)```(\\w*)\\s*$");
  static final Pattern SNIPPET = Pattern.compile("<!--\\s*snippet:\\s*(\\S+)#(\\S+)\\s*-->");
  static final String FRAGMENT = "<!-- fragment -->";

  record Block(Path file, int line, String lang, String marker, String text) {
    String where() {
      return ROOT.relativize(file) + ":" + line;
    }
  }

  static List<Path> markdownFiles() throws IOException {
    List<Path> files = new ArrayList<>();
    files.add(ROOT.resolve("README.md"));
    try (Stream<Path> all = Files.walk(ROOT, 3)) {
      all.filter(p -> p.getFileName().toString().equals("README.md"))
          .filter(p -> !p.equals(ROOT.resolve("README.md")))
          .filter(p -> !p.toString().contains("node_modules") && !p.toString().contains("target"))
          .sorted()
          .forEach(files::add);
    }
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
    }
    return files;
  }

  static List<Block> blocks() throws IOException {
    List<Block> blocks = new ArrayList<>();
    for (Path file : markdownFiles()) {
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      for (int i = 0; i < lines.size(); i++) {
        Matcher open = FENCE.matcher(lines.get(i));
        if (!open.matches() || open.group(2).isEmpty()) {
          if (open.matches()) { // a fence without a language: skip to its end
            i = closing(lines, i, open.group(1));
          }
          continue;
        }
        String indent = open.group(1);
        int end = closing(lines, i, indent);
        StringBuilder text = new StringBuilder();
        for (int j = i + 1; j < end; j++) {
          String l = lines.get(j);
          text.append(l.startsWith(indent) ? l.substring(indent.length()) : l.strip()).append('\n');
        }
        int m = i - 1;
        while (m >= 0 && lines.get(m).isBlank()) {
          m--;
        }
        String marker = m >= 0 ? lines.get(m).strip() : "";
        blocks.add(new Block(file, i + 1, open.group(2), marker, text.toString()));
        i = end;
      }
    }
    return blocks;
  }

  private static int closing(List<String> lines, int open, String indent) {
    for (int j = open + 1; j < lines.size(); j++) {
      if (lines.get(j).strip().equals("```")) {
        return j;
      }
    }
    throw new AssertionError("unclosed code block at line " + (open + 1));
  }

  static String region(Path source, String name) throws IOException {
    String text = Files.readString(source, StandardCharsets.UTF_8);
    String start = "// snippet:" + name + "\n";
    String end = "// end:" + name + "\n";
    int s = text.indexOf(start);
    int e = text.indexOf(end);
    assertThat(s).as("region %s in %s", name, source).isNotNegative();
    assertThat(e).as("end of region %s in %s", name, source).isGreaterThan(s);
    return text.substring(s + start.length(), e);
  }

  @Test
  void everyJavaBlockIsIncludedFromTestedSourceOrMarkedAsAFragment() throws IOException {
    List<String> problems = new ArrayList<>();
    int included = 0;
    for (Block b : blocks()) {
      Matcher snippet = SNIPPET.matcher(b.marker());
      if (!b.lang().equals("java") && !snippet.matches()) {
        continue; // other languages (Gradle scripts, shell) need no marker; an included one is
        // checked
      }
      if (snippet.matches()) {
        Path source = ROOT.resolve(snippet.group(1));
        if (!Files.isRegularFile(source)) {
          problems.add(b.where() + ": no file " + snippet.group(1));
        } else if (!region(source, snippet.group(2)).equals(b.text())) {
          problems.add(
              b.where()
                  + ": differs from "
                  + snippet.group(1)
                  + "#"
                  + snippet.group(2)
                  + ":\n"
                  + region(source, snippet.group(2)));
        } else {
          included++;
        }
      } else if (!b.marker().equals(FRAGMENT)) {
        problems.add(
            b.where()
                + ": a java block needs '<!-- snippet: <file>#<region> -->' (tested source) or '"
                + FRAGMENT
                + "' on the line before it");
      }
    }
    assertThat(problems).isEmpty();
    assertThat(included).as("blocks included from tested source").isPositive();
  }

  @Test
  void everyHostloomKeyOfAPropertySnippetIsAStarterProperty() throws IOException {
    Map<String, ConfigurationMetadataProperty> known = metadata();
    List<String> problems = new ArrayList<>();
    int checked = 0;
    for (Block b : blocks()) {
      if (!Set.of("yaml", "yml", "properties").contains(b.lang()) || b.marker().equals(FRAGMENT)) {
        continue;
      }
      for (String key : keys(b)) {
        if (key.startsWith("hostloom.")) {
          checked++;
          if (!isKnown(known, key)) {
            problems.add(b.where() + ": '" + key + "' is not a property of the starter");
          }
        }
      }
    }
    assertThat(problems).isEmpty();
    assertThat(checked).as("hostloom.* keys checked").isPositive();
  }

  static Set<String> keys(Block b) throws IOException {
    Set<String> keys = new TreeSet<>();
    if (b.lang().equals("properties")) {
      Properties p = new Properties();
      p.load(new StringReader(b.text()));
      p.stringPropertyNames().forEach(keys::add);
    } else {
      for (Object doc : new Yaml().loadAll(b.text())) {
        if (doc instanceof Map<?, ?> map) {
          flatten("", map, keys);
        }
      }
    }
    return keys;
  }

  private static void flatten(String prefix, Map<?, ?> map, Set<String> keys) {
    map.forEach(
        (k, v) -> {
          String key = prefix + k;
          if (v instanceof Map<?, ?> inner && !inner.isEmpty()) {
            flatten(key + ".", inner, keys);
          } else {
            keys.add(key);
          }
        });
  }

  /** Exactly a published property, or below a map-valued one (the map's keys are the user's). */
  static boolean isKnown(Map<String, ConfigurationMetadataProperty> known, String key) {
    String k = key.replaceAll("\\[\\d+]", "");
    if (known.containsKey(k)) {
      return true;
    }
    for (ConfigurationMetadataProperty p : known.values()) {
      if (p.getType() != null
          && p.getType().startsWith("java.util.Map")
          && k.startsWith(p.getId() + ".")) {
        return true;
      }
    }
    return false;
  }

  static Map<String, ConfigurationMetadataProperty> metadata() throws IOException {
    List<URL> files =
        Collections.list(
            MarkdownSnippetsTest.class
                .getClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json"));
    ConfigurationMetadataRepositoryJsonBuilder builder =
        ConfigurationMetadataRepositoryJsonBuilder.create();
    for (URL url : files) {
      try (InputStream in = url.openStream()) {
        builder.withJsonResource(in);
      }
    }
    return builder.build().getAllProperties();
  }
}
