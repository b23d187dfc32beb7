package io.hostloom.wopihost.users;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * What a user may do in a folder. Each WOPI operation needs one right on the folder of the file or
 * container it touches: {@link #READ} for CheckFileInfo, GetFile, GetLock, FileUrl, the container
 * and ecosystem reads; {@link #WRITE} for PutFile, the lock operations and PutRelativeFile's
 * overwrite of an existing target; {@link #CREATE} for PutRelativeFile, CreateChildFile and
 * CreateChildContainer; {@link #RENAME} for RenameFile and RenameContainer; {@link #DELETE} for
 * DeleteFile and DeleteContainer.
 */
public enum Right {
  READ,
  WRITE,
  CREATE,
  RENAME,
  DELETE;

  /** Every right. */
  public static Set<Right> all() {
    return EnumSet.allOf(Right.class);
  }

  /**
   * The right named {@code name} (any case), or {@code all} for every right.
   *
   * @throws IllegalArgumentException for another name
   */
  public static Set<Right> parse(String name) {
    String n = name.strip().toUpperCase(Locale.ROOT);
    if (n.equals("ALL")) {
      return all();
    }
    if (n.equals("NONE")) {
      return EnumSet.noneOf(Right.class);
    }
    try {
      return EnumSet.of(Right.valueOf(n));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "unknown right '" + name + "' (read, write, create, rename, delete, all or none)", e);
    }
  }
}
