import { Decider, DomainError, DomainEvent, fold } from '@payments/eventsourcing';

/** given(history).when(command).then(events) / .thenFails(code): the one vocabulary for decider tests. */
export function given<S, C, E extends DomainEvent>(decider: Decider<S, C, E>, history: readonly E[] = []) {
  const state = fold(decider, history);
  return {
    when(command: C) {
      const decision = decider.decide(command, state);
      return {
        then(expected: readonly E[]): void {
          if (decision instanceof DomainError) throw new Error(`expected events, got ${decision.code}: ${decision.message}`);
          expect(decision).toEqual(expected);
        },
        thenFails(code: string): DomainError {
          if (!(decision instanceof DomainError)) throw new Error(`expected ${code}, got events ${JSON.stringify(decision)}`);
          expect(decision.code).toBe(code);
          return decision;
        },
      };
    },
  };
}
