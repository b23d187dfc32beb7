package io.hostloom.wopihost.users;

import java.util.List;
import java.util.Set;

/**
 * Who may do what: the host asks it before every WOPI operation (see {@link Right}) and fills
 * CheckFileInfo's user fields from it. The default is {@link FileAccessPolicy}; an integration with
 * a real identity provider implements this interface as a Spring bean, which then replaces it.
 *
 * <p>Implementations must be thread-safe and fast (one call per request, on the request thread),
 * and must not throw for an unknown user: they answer no rights.
 */
public interface AccessPolicy {
  /**
   * The rights of {@code user} in a folder.
   *
   * @param user the user an access token names (non-empty)
   * @param folderPath the folder's id and those of its ancestors, root first ({@code "root"} first,
   *     the folder itself last), so rules can be inherited
   * @return the rights; empty when the user may do nothing there
   */
  Set<Right> rights(String user, List<String> folderPath);

  /** The name shown for {@code user} ({@code UserFriendlyName}); the id itself by default. */
  default String friendlyName(String user) {
    return user;
  }
}
