package io.hostloom.springboot.backend;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.context.annotation.Conditional;

/**
 * Matches when {@code hostloom.backend} chooses the named backend, ignoring case and surrounding
 * blanks. Every backend's auto-configuration, in this module or another, is guarded by it.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@Documented
@Conditional(OnBackendCondition.class)
public @interface ConditionalOnBackend {
  /** The backend's name, the {@link BackendDefinition#name()} of its definition. */
  String value();
}
