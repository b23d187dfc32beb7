package io.hostloom.wopihost.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The WOPI containers: a tree of folders over the flat documents folder. Files stay where they are
 * on disk (their ids, and so every WOPISrc, do not change); the tree is host bookkeeping under
 * {@code .wopi}: {@code folders/<id>} holds a folder's parent and name, {@code parents/<file id>} a
 * file's folder (none: the root). The root folder, {@value #ROOT}, always exists. File names stay
 * unique across the whole documents folder, so a name in one folder is taken in every folder.
 *
 * <p>Every change is one atomic file-system step (create-new, atomic move), so instances sharing
 * the folder see the same tree.
 */
public final class Folders {
  /** The id of the root folder (the documents folder itself). */
  public static final String ROOT = "root";

  private static final int MAX_DEPTH = 64;
  private static final int MAX_NAME = 200;

  /** One folder; {@code parent} is null for the root. */
  public record Folder(String id, String name, String parent) {
    public boolean isRoot() {
      return parent == null;
    }
  }

  private final DocumentStore store;
  private final Path folders;
  private final Path parents;
  private final Path temp;
  private final String rootName;
  private final SecureRandom random = new SecureRandom();

  /**
   * @throws UncheckedIOException when the bookkeeping folders cannot be created
   */
  public Folders(DocumentStore store) {
    this.store = store;
    Path host = store.root().resolve(".wopi");
    this.folders = host.resolve("folders");
    this.parents = host.resolve("parents");
    this.temp = host.resolve("tmp");
    Path name = store.root().getFileName();
    this.rootName = name == null ? "Documents" : name.toString();
    try {
      Files.createDirectories(folders);
      Files.createDirectories(parents);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the folder bookkeeping", e);
    }
  }

  /** Whether {@code id} has the shape of a folder id (says nothing about existence). */
  public static boolean isValidId(String id) {
    return id != null && (id.equals(ROOT) || id.matches("c[0-9a-f]{16}"));
  }

  /** The folder {@code id}, or empty when there is none. */
  public Optional<Folder> find(String id) {
    if (!isValidId(id)) {
      return Optional.empty();
    }
    if (id.equals(ROOT)) {
      return Optional.of(new Folder(ROOT, rootName, null));
    }
    try {
      String[] lines = Files.readString(folders.resolve(id), StandardCharsets.UTF_8).split("\n", 2);
      if (lines.length != 2 || !isValidId(lines[0])) {
        return Optional.empty();
      }
      return Optional.of(new Folder(id, lines[1], lines[0]));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read folder " + id, e);
    }
  }

  /**
   * The folder and its ancestors, root first; empty when it does not exist or hangs below a folder
   * that does not (anymore).
   */
  public Optional<List<Folder>> path(String id) {
    List<Folder> path = new ArrayList<>();
    Optional<Folder> f = find(id);
    while (f.isPresent() && path.size() < MAX_DEPTH) {
      path.add(0, f.get());
      if (f.get().isRoot()) {
        return Optional.of(path);
      }
      f = find(f.get().parent());
    }
    return Optional.empty();
  }

  /** The ids of {@link #path(String)}, root first; just the root when the folder is gone. */
  public List<String> pathIds(String id) {
    return path(id).orElse(List.of(find(ROOT).orElseThrow())).stream().map(Folder::id).toList();
  }

  /** The folder of file {@code fileId}: the root unless it was placed in a folder that exists. */
  public String folderOf(String fileId) {
    Optional<Path> record = FileIds.resolve(parents, fileId);
    if (record.isEmpty()) {
      return ROOT;
    }
    try {
      String parent = Files.readString(record.get(), StandardCharsets.UTF_8).strip();
      return path(parent).isPresent() ? parent : ROOT;
    } catch (NoSuchFileException e) {
      return ROOT;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the folder of " + fileId, e);
    }
  }

  /** Puts file {@code fileId} in folder {@code folderId} (the root: clears any placement). */
  public void place(String fileId, String folderId) {
    Path record = FileIds.resolve(parents, fileId).orElseThrow();
    try {
      if (folderId.equals(ROOT)) {
        Files.deleteIfExists(record);
      } else {
        writeAtomically(record, folderId);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot place " + fileId, e);
    }
  }

  /** Forgets where {@code fileId} was (after a delete, so a new file of that id is in the root). */
  public void forget(String fileId) {
    place(fileId, ROOT);
  }

  /** The folders directly in {@code id}, by name. */
  public List<Folder> childFolders(String id) {
    List<Folder> children = new ArrayList<>();
    try (DirectoryStream<Path> dir = Files.newDirectoryStream(folders)) {
      for (Path p : dir) {
        find(p.getFileName().toString())
            .filter(f -> id.equals(f.parent()))
            .ifPresent(children::add);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list folders", e);
    }
    children.sort(Comparator.comparing(Folder::name, String.CASE_INSENSITIVE_ORDER));
    return children;
  }

  /** The documents directly in folder {@code id}, by id. */
  public List<Document> files(String id) {
    return store.list().stream().filter(d -> folderOf(d.id()).equals(id)).toList();
  }

  /** Whether {@code name} is acceptable for a folder (the file-name rules). */
  public static boolean isValidName(String name) {
    return name != null && name.length() <= MAX_NAME && FileIds.isValid(name);
  }

  /**
   * Creates a folder {@code name} in {@code parent}.
   *
   * @return the new folder; empty when the parent does not exist or a folder in it already has this
   *     name or one that looks like it ({@link NameCanonicalizer#key})
   * @throws IllegalArgumentException when the name is not valid
   */
  public Optional<Folder> create(String parent, String name) {
    if (!isValidName(name)) {
      throw new IllegalArgumentException("not a valid folder name: " + name);
    }
    if (path(parent).isEmpty() || nameTaken(parent, name, null)) {
      return Optional.empty();
    }
    byte[] id = new byte[8];
    random.nextBytes(id);
    String folderId = "c" + HexFormat.of().formatHex(id);
    try {
      Files.writeString(
          folders.resolve(folderId),
          parent + "\n" + name,
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE_NEW);
    } catch (FileAlreadyExistsException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create folder " + name, e);
    }
    return find(folderId);
  }

  /**
   * Renames folder {@code id}; the root cannot be renamed.
   *
   * @return the renamed folder; empty when it does not exist, is the root, or a sibling has the
   *     name or one that looks like it
   * @throws IllegalArgumentException when the name is not valid
   */
  public Optional<Folder> rename(String id, String name) {
    if (!isValidName(name)) {
      throw new IllegalArgumentException("not a valid folder name: " + name);
    }
    Optional<Folder> f = find(id);
    if (f.isEmpty() || f.get().isRoot() || nameTaken(f.get().parent(), name, id)) {
      return Optional.empty();
    }
    try {
      writeAtomically(folders.resolve(id), f.get().parent() + "\n" + name);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot rename folder " + id, e);
    }
    return find(id);
  }

  /** Whether folder {@code id} has no files and no folders. */
  public boolean isEmpty(String id) {
    return childFolders(id).isEmpty() && files(id).isEmpty();
  }

  /** Deletes folder {@code id} (not the root); returns whether it existed. */
  public boolean delete(String id) {
    if (!isValidId(id) || id.equals(ROOT)) {
      return false;
    }
    try {
      return Files.deleteIfExists(folders.resolve(id));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete folder " + id, e);
    }
  }

  /** A sibling's name that looks like {@code name} ({@link NameCanonicalizer#key}) takes it. */
  private boolean nameTaken(String parent, String name, String except) {
    String key = NameCanonicalizer.key(name);
    return childFolders(parent).stream()
        .anyMatch(f -> !f.id().equals(except) && NameCanonicalizer.key(f.name()).equals(key));
  }

  private void writeAtomically(Path target, String content) throws IOException {
    Path tmp = temp.resolve(UUID.randomUUID().toString());
    Files.writeString(tmp, content, StandardCharsets.UTF_8);
    try {
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}
