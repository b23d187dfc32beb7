package io.hostloom.wopihost.security;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.RSAPublicKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * What a WOPI client's discovery XML tells the host: its proof keys (current and old) and, per file
 * extension, the action URLs to open a file with.
 *
 * @param proofKey the current proof key, when the discovery publishes one
 * @param oldProofKey the previous proof key, when published
 * @param actions every {@code <action>} of every {@code <app>}
 */
public record WopiDiscovery(
    Optional<PublicKey> proofKey, Optional<PublicKey> oldProofKey, List<Action> actions) {

  /** One {@code <action name=".." ext=".." urlsrc=".."/>}. */
  public record Action(String app, String name, String ext, String urlsrc) {}

  public WopiDiscovery {
    actions = List.copyOf(actions);
  }

  /**
   * The URL that opens {@code wopiSrc} for a file with extension {@code ext} (without dot): the
   * {@code edit} action when there is one, otherwise {@code view}; the urlsrc's optional {@code
   * <name=VALUE&>} placeholders are dropped and {@code WOPISrc} is appended.
   */
  public Optional<String> openUrl(String ext, String wopiSrc) {
    String wanted = ext.toLowerCase(Locale.ROOT);
    Optional<Action> action = find(wanted, "edit").or(() -> find(wanted, "view"));
    return action.map(a -> withWopiSrc(a.urlsrc(), wopiSrc));
  }

  private Optional<Action> find(String ext, String name) {
    return actions.stream()
        .filter(a -> a.name().equals(name) && a.ext().equalsIgnoreCase(ext))
        .findFirst();
  }

  static String withWopiSrc(String urlsrc, String wopiSrc) {
    String base = urlsrc.replaceAll("<[^>]*>", "");
    String sep = base.contains("?") ? (base.endsWith("?") || base.endsWith("&") ? "" : "&") : "?";
    return base + sep + "WOPISrc=" + URLEncoder.encode(wopiSrc, StandardCharsets.UTF_8);
  }

  /**
   * Parses a discovery document, keeping only {@code https} actions. External entities and DTDs are
   * refused.
   *
   * @throws IOException when the document cannot be read or is not discovery XML
   */
  public static WopiDiscovery parse(InputStream xml) throws IOException {
    return parse(xml, false);
  }

  /**
   * Parses a discovery document. Actions whose URL is not {@link DiscoveryClient#isAcceptable
   * acceptable} ({@code javascript:}, {@code data:}, plain {@code http} elsewhere than loopback
   * with {@code allowInsecureLocalhost}) are dropped. External entities and DTDs are refused.
   *
   * @throws IOException when the document cannot be read or is not discovery XML
   */
  public static WopiDiscovery parse(InputStream xml, boolean allowInsecureLocalhost)
      throws IOException {
    Document doc;
    try {
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      f.setXIncludeAware(false);
      f.setExpandEntityReferences(false);
      DocumentBuilder b = f.newDocumentBuilder();
      doc = b.parse(xml);
    } catch (ParserConfigurationException | SAXException e) {
      throw new IOException("not a WOPI discovery document: " + e.getMessage(), e);
    }
    Element root = doc.getDocumentElement();
    if (!"wopi-discovery".equals(root.getTagName())) {
      throw new IOException("not a WOPI discovery document: root is <" + root.getTagName() + ">");
    }
    Optional<PublicKey> current = Optional.empty();
    Optional<PublicKey> old = Optional.empty();
    NodeList proof = root.getElementsByTagName("proof-key");
    if (proof.getLength() > 0) {
      Element p = (Element) proof.item(0);
      current = rsaKey(p.getAttribute("modulus"), p.getAttribute("exponent"));
      old = rsaKey(p.getAttribute("oldmodulus"), p.getAttribute("oldexponent"));
    }
    List<Action> actions = new ArrayList<>();
    NodeList apps = root.getElementsByTagName("app");
    for (int i = 0; i < apps.getLength(); i++) {
      Element app = (Element) apps.item(i);
      NodeList as = app.getElementsByTagName("action");
      for (int j = 0; j < as.getLength(); j++) {
        Element a = (Element) as.item(j);
        if (!isAcceptableAction(a.getAttribute("urlsrc"), allowInsecureLocalhost)) {
          continue;
        }
        actions.add(
            new Action(
                app.getAttribute("name"),
                a.getAttribute("name"),
                a.getAttribute("ext"),
                a.getAttribute("urlsrc")));
      }
    }
    return new WopiDiscovery(current, old, actions);
  }

  private static boolean isAcceptableAction(String urlsrc, boolean allowInsecureLocalhost) {
    try {
      return DiscoveryClient.isAcceptable(
          new URI(urlsrc.replaceAll("<[^>]*>", "").strip()), allowInsecureLocalhost);
    } catch (URISyntaxException e) {
      return urlsrc.strip().regionMatches(true, 0, "https://", 0, 8); // odd characters later on
    }
  }

  private static Optional<PublicKey> rsaKey(String modulus, String exponent) throws IOException {
    if (modulus.isBlank() || exponent.isBlank()) {
      return Optional.empty();
    }
    try {
      BigInteger n = new BigInteger(1, Base64.getDecoder().decode(modulus.strip()));
      BigInteger e = new BigInteger(1, Base64.getDecoder().decode(exponent.strip()));
      return Optional.of(KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(n, e)));
    } catch (IllegalArgumentException | GeneralSecurityException ex) {
      throw new IOException("unreadable proof key in discovery: " + ex.getMessage(), ex);
    }
  }
}
