package io.hostloom.cli;

import picocli.CommandLine.IVersionProvider;

/** {@code --version}: the jar's Implementation-Version. */
final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    String v = Main.class.getPackage().getImplementationVersion();
    return new String[] {"hostloom " + (v == null ? "(development build)" : v)};
  }
}
