/**
 * Domain events as they leave a decider: a stable, versioned type name and plain data (DESIGN §4, §10).
 * Deciders are pure: no clock, no ids, no I/O; everything impure arrives in the command.
 */
export interface DomainEvent<TType extends string = string, TData = unknown> {
  type: TType;
  data: TData;
}

/** A failure named after the rule it enforces; the code is mapped to HTTP in one place (libs/contracts). */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export type Decision<E extends DomainEvent> = readonly E[] | DomainError;

export interface Decider<S, C, E extends DomainEvent> {
  initialState: S;
  decide(command: C, state: S): Decision<E>;
  evolve(state: S, event: E): S;
}

export function fold<S, E extends DomainEvent>(decider: Pick<Decider<S, unknown, E>, 'initialState' | 'evolve'>, events: readonly E[]): S {
  return events.reduce((state, event) => decider.evolve(state, event), decider.initialState);
}

/** Exhaustiveness check at the end of every switch over a union (DESIGN §10). */
export function assertNever(value: never): never {
  throw new Error(`unhandled case: ${JSON.stringify(value)}`);
}
