package io.hostloom.wopihost.security;

/**
 * What a token opens. A file's scope is its id; the other scopes start with {@code :}, which no
 * file id may contain, so a token for one kind can never be taken for another: a FileUrl token does
 * not open the WOPI endpoints, a folder token does not open a file.
 */
public final class TokenScopes {
  private static final String FILE_URL = ":fileurl:";
  private static final String CONTAINER = ":container:";

  /** The user's own scope: the page's file list, the ecosystem, PutUserInfo's target. */
  public static final String USER = ":user";

  private TokenScopes() {}

  /** The WOPI endpoints of file {@code id}. */
  public static String file(String id) {
    return id;
  }

  /** The download URL ({@code FileUrl}) of file {@code id} only. */
  public static String fileUrl(String id) {
    return FILE_URL + id;
  }

  /** The WOPI endpoints of folder {@code id}. */
  public static String container(String id) {
    return CONTAINER + id;
  }

  /**
   * Whose generation a token of {@code scope} carries: a FileUrl token dies with its file's tokens.
   */
  static String subject(String scope) {
    return scope.startsWith(FILE_URL) ? scope.substring(FILE_URL.length()) : scope;
  }
}
