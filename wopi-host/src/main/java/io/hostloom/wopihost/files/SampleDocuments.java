package io.hostloom.wopihost.files;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * The documents a fresh folder starts with: the {@code .wopitest} file Microsoft's WOPI validator
 * needs, a small Word document (a minimal valid OOXML package, so a real WOPI client can open it)
 * and a text file.
 */
public final class SampleDocuments {
  /** The id of the validator's file. */
  public static final String VALIDATOR_FILE = "validator.wopitest";

  private SampleDocuments() {}

  /** Creates the samples that are missing when {@code store} holds no document at all. */
  public static void seedIfEmpty(DocumentStore store) {
    if (!store.list().isEmpty()) {
      return;
    }
    store.create(VALIDATOR_FILE, new byte[0]);
    store.create("welcome.docx", welcomeDocx());
    store.create(
        "readme.txt",
        ("Files in this folder are served by the HostLoom WOPI host.\n"
                + "Each file's name is its WOPI file id.\n")
            .getBytes(StandardCharsets.UTF_8));
  }

  /** A one-paragraph .docx: the four parts Word needs, nothing else. */
  static byte[] welcomeDocx() {
    String contentTypes =
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>"
            + "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
            + "<Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>"
            + "<Default Extension=\"xml\" ContentType=\"application/xml\"/>"
            + "<Override PartName=\"/word/document.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml\"/>"
            + "</Types>";
    String rels =
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>"
            + "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
            + "<Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument\" Target=\"word/document.xml\"/>"
            + "</Relationships>";
    String document =
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>"
            + "<w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\">"
            + "<w:body><w:p><w:r><w:t>Welcome to the HostLoom WOPI host.</w:t></w:r></w:p></w:body>"
            + "</w:document>";
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(out)) {
      add(zip, "[Content_Types].xml", contentTypes);
      add(zip, "_rels/.rels", rels);
      add(zip, "word/document.xml", document);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private static void add(ZipOutputStream zip, String name, String xml) throws IOException {
    zip.putNextEntry(new ZipEntry(name));
    zip.write(xml.getBytes(StandardCharsets.UTF_8));
    zip.closeEntry();
  }
}
