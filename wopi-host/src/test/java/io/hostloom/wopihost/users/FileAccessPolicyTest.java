package io.hostloom.wopihost.users;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class FileAccessPolicyTest {
  static final FileAccessPolicy POLICY =
      FileAccessPolicy.parse(
          List.of(
              "# comment",
              "grant alice root all",
              "grant bob root read   # trailing comment",
              "grant bob c1 read,write",
              "grant bob c2 none",
              "grant * root read",
              "grant * c1 none",
              "name alice Alice  Liddell"));

  @Test
  void theNearestRuleDecidesTheUsersOwnBeforeTheWildcard() {
    assertThat(POLICY.rights("alice", List.of("root", "c1"))).isEqualTo(Right.all());
    assertThat(POLICY.rights("bob", List.of("root"))).containsExactly(Right.READ);
    assertThat(POLICY.rights("bob", List.of("root", "c1", "c9")))
        .isEqualTo(EnumSet.of(Right.READ, Right.WRITE));
    assertThat(POLICY.rights("bob", List.of("root", "c2"))).isEmpty();
    assertThat(POLICY.rights("carol", List.of("root"))).containsExactly(Right.READ);
    assertThat(POLICY.rights("carol", List.of("root", "c1"))).isEmpty();
  }

  @Test
  void noRuleMeansNoRights() {
    assertThat(
            FileAccessPolicy.parse(List.of("grant alice c1 all")).rights("alice", List.of("root")))
        .isEmpty();
  }

  @Test
  void friendlyNamesDefaultToTheId() {
    assertThat(POLICY.friendlyName("alice")).isEqualTo("Alice  Liddell");
    assertThat(POLICY.friendlyName("bob")).isEqualTo("bob");
  }

  @Test
  void malformedLinesAreRefusedWithTheirNumber() {
    assertThatThrownBy(() -> FileAccessPolicy.parse(List.of("", "grant alice root fly")))
        .hasMessageContaining("line 2")
        .hasMessageContaining("unknown right 'fly'");
    assertThatThrownBy(() -> FileAccessPolicy.parse(List.of("allow alice root all")))
        .hasMessageContaining("line 1");
  }

  @Test
  void theEmbeddedDefaultGivesEveryUserEveryRight() {
    assertThat(FileAccessPolicy.everyoneMayDoEverything().rights("anyone", List.of("root", "c1")))
        .isEqualTo(Right.all());
  }
}
