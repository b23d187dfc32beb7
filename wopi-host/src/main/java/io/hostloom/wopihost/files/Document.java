package io.hostloom.wopihost.files;

import java.time.Instant;

/**
 * One file of the documents folder as the host describes it.
 *
 * @param id the stable WOPI file id (the file's name in the folder; never changes on rename)
 * @param name the name users see ({@code BaseFileName}); differs from the id after a RenameFile
 * @param size the content length in bytes
 * @param version the file's version: changes on every PutFile and on nothing the host does
 *     otherwise (locks, reads, renames leave it alone)
 * @param lastModified when the content last changed
 */
public record Document(String id, String name, long size, String version, Instant lastModified) {

  /** The extension of {@link #name()} including the dot, or {@code ""}. */
  public String extension() {
    int dot = name.lastIndexOf('.');
    return dot <= 0 ? "" : name.substring(dot);
  }
}
