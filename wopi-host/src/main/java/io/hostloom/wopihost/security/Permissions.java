package io.hostloom.wopihost.security;

import io.hostloom.wopihost.files.Folders;
import io.hostloom.wopihost.users.AccessPolicy;
import io.hostloom.wopihost.users.Right;
import java.util.Set;

/**
 * The {@link AccessPolicy}'s answers for files and folders: a file's rights are those of the folder
 * it is in. Refusals are {@link WopiAuthException}s with status 401, WOPI's answer for a token that
 * does not allow the operation.
 */
public final class Permissions {
  private final AccessPolicy policy;
  private final Folders folders;

  public Permissions(AccessPolicy policy, Folders folders) {
    this.policy = policy;
    this.folders = folders;
  }

  /** The rights of {@code user} on file {@code fileId}. */
  public Set<Right> onFile(String user, String fileId) {
    return inFolder(user, folders.folderOf(fileId));
  }

  /** The rights of {@code user} in folder {@code folderId}. */
  public Set<Right> inFolder(String user, String folderId) {
    return policy.rights(user, folders.pathIds(folderId));
  }

  /**
   * @throws WopiAuthException 401 when {@code user} lacks {@code right} on the file
   */
  public void requireOnFile(String user, String fileId, Right right) {
    if (!onFile(user, fileId).contains(right)) {
      throw WopiAuthException.unauthorized("the user may not " + right + " this file");
    }
  }

  /**
   * @throws WopiAuthException 401 when {@code user} lacks {@code right} in the folder
   */
  public void requireInFolder(String user, String folderId, Right right) {
    if (!inFolder(user, folderId).contains(right)) {
      throw WopiAuthException.unauthorized("the user may not " + right + " in this folder");
    }
  }

  /** The name shown for {@code user}. */
  public String friendlyName(String user) {
    return policy.friendlyName(user);
  }
}
