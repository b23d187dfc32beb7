package io.hostloom.wopihost.security;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.Signature;
import java.security.interfaces.RSAPublicKey;
import java.util.Base64;

/** Plays the WOPI client in tests: signs requests and publishes its keys in a discovery XML. */
public final class ProofSigner {
  private ProofSigner() {}

  /** {@code X-WOPI-Proof} for a request, signed with {@code keys}. */
  public static String sign(KeyPair keys, String token, String url, long ticks) {
    try {
      Signature s = Signature.getInstance("SHA256withRSA");
      s.initSign(keys.getPrivate());
      s.update(ProofKeys.proofData(token, url, ticks));
      return Base64.getEncoder().encodeToString(s.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A discovery document with both keys and Word actions under {@code clientBase}. */
  public static String discoveryXml(KeyPair current, KeyPair old, String clientBase) {
    RSAPublicKey c = (RSAPublicKey) current.getPublic();
    RSAPublicKey o = (RSAPublicKey) old.getPublic();
    return "<?xml version=\"1.0\" encoding=\"utf-8\"?><wopi-discovery><net-zone name=\"external-http\">"
        + "<app name=\"Word\"><action name=\"view\" ext=\"docx\" urlsrc=\""
        + clientBase
        + "/wv/wordviewerframe.aspx?&lt;ui=UI_LLCC&amp;&gt;\"/>"
        + "<action name=\"edit\" ext=\"docx\" requires=\"locks,update\" urlsrc=\""
        + clientBase
        + "/we/wordeditorframe.aspx?&lt;ui=UI_LLCC&amp;&gt;&lt;rs=DC_LLCC&amp;&gt;\"/></app>"
        + "</net-zone><proof-key value=\"unused\" modulus=\""
        + b64(c.getModulus())
        + "\" exponent=\""
        + b64(c.getPublicExponent())
        + "\" oldvalue=\"unused\" oldmodulus=\""
        + b64(o.getModulus())
        + "\" oldexponent=\""
        + b64(o.getPublicExponent())
        + "\"/></wopi-discovery>";
  }

  private static String b64(BigInteger n) {
    byte[] bytes = n.toByteArray();
    if (bytes.length > 1 && bytes[0] == 0) { // drop the sign byte, as .NET exports do
      bytes = java.util.Arrays.copyOfRange(bytes, 1, bytes.length);
    }
    return Base64.getEncoder().encodeToString(bytes);
  }
}
