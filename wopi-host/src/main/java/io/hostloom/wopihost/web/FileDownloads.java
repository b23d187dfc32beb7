package io.hostloom.wopihost.web;

import io.hostloom.wopihost.files.Document;
import io.hostloom.wopihost.files.DocumentStore;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.NoSuchFileException;
import org.springframework.core.io.InputStreamResource;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

/**
 * A document's content as GetFile and the FileUrl answer it: with {@code X-WOPI-ItemVersion}, 412
 * above {@code X-WOPI-MaxExpectedSize}, never cached.
 */
final class FileDownloads {
  static final String ITEM_VERSION = "X-WOPI-ItemVersion";

  private FileDownloads() {}

  static ResponseEntity<InputStreamResource> serve(
      DocumentStore store, Document doc, HttpServletRequest request) throws IOException {
    SeekableByteChannel channel;
    try {
      channel = store.open(doc.id());
    } catch (NoSuchFileException e) {
      return ResponseEntity.notFound().build();
    }
    long size = channel.size();
    String max = request.getHeader("X-WOPI-MaxExpectedSize");
    if (max != null && isLargerThan(size, max)) {
      channel.close();
      return ResponseEntity.status(HttpStatus.PRECONDITION_FAILED)
          .header(ITEM_VERSION, doc.version())
          .build();
    }
    return ResponseEntity.ok()
        .header(ITEM_VERSION, doc.version())
        .contentType(MediaType.APPLICATION_OCTET_STREAM)
        .contentLength(size)
        .cacheControl(CacheControl.noStore())
        .body(new InputStreamResource(Channels.newInputStream(channel)));
  }

  private static boolean isLargerThan(long size, String maxHeader) {
    try {
      return size > Long.parseLong(maxHeader.strip());
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
