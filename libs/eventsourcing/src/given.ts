import { isDeepStrictEqual } from 'node:util';
import { Decider, DomainError, DomainEvent, fold } from './decider';

/**
 * given(decider, history).when(command).then(events) / .thenFails(code): the one vocabulary for decider tests.
 * Framework-free (it throws on a mismatch), so it works under any runner and stays pure.
 */
export function given<S, C, E extends DomainEvent>(decider: Decider<S, C, E>, history: readonly E[] = []) {
  const state = fold(decider, history);
  return {
    state,
    when(command: C) {
      const decision = decider.decide(command, state);
      return {
        decision,
        then(expected: readonly E[]): readonly E[] {
          if (decision instanceof DomainError) throw new Error(`expected events, got ${decision.code}: ${decision.message}`);
          if (!isDeepStrictEqual(JSON.parse(JSON.stringify(decision)), JSON.parse(JSON.stringify(expected)))) {
            throw new Error(`expected ${JSON.stringify(expected)}\n     got ${JSON.stringify(decision)}`);
          }
          return decision;
        },
        thenFails(code: string): DomainError {
          if (!(decision instanceof DomainError)) throw new Error(`expected ${code}, got events ${JSON.stringify(decision)}`);
          if (decision.code !== code) throw new Error(`expected ${code}, got ${decision.code}: ${decision.message}`);
          return decision;
        },
      };
    },
  };
}
