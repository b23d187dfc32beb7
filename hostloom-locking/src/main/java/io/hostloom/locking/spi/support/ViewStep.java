package io.hostloom.locking.spi.support;

import java.util.Objects;

/**
 * The result of one view decision ({@link PermitEntries}, {@link ReadWriteEntries}): the key's next
 * state, to be written back atomically in place of the state the decision read, and the answer.
 *
 * @param <S> the state type
 * @param <O> the outcome type
 * @param next the key's state after the operation
 * @param outcome the operation's answer
 */
public record ViewStep<S, O>(S next, O outcome) {
  /** The state and outcome are required. */
  public ViewStep {
    Objects.requireNonNull(next, "next");
    Objects.requireNonNull(outcome, "outcome");
  }
}
