package io.hostloom.springboot.backend;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** The condition of {@link ConditionalOnBackend}. */
final class OnBackendCondition extends SpringBootCondition {
  @Override
  public ConditionOutcome getMatchOutcome(
      ConditionContext context, AnnotatedTypeMetadata metadata) {
    Map<String, Object> attributes =
        metadata.getAnnotationAttributes(ConditionalOnBackend.class.getName());
    String wanted = String.valueOf(attributes.get("value")).toLowerCase(Locale.ROOT);
    BackendProperty property = BackendProperty.of(Binder.get(context.getEnvironment()));
    Optional<String> chosen = property.name();
    if (chosen.isPresent() && chosen.get().equals(wanted)) {
      return ConditionOutcome.match(BackendProperty.NAME + "=" + wanted);
    }
    return ConditionOutcome.noMatch(BackendProperty.NAME + " is not " + wanted);
  }
}
