import { Map as PersistentMap } from 'immutable';

/** How a hold stopped reserving funds. */
export type HoldOutcome = 'CAPTURED' | 'RELEASED' | 'EXPIRED';

/**
 * The holds an account ever closed, and how: a redelivered capture, release or placement must be recognised as done,
 * and a hot account closes many. A persistent map (immutable's hash array mapped trie): recording one more shares
 * everything but one path with the map before it, so the fold stays O(1) per event however many holds were closed,
 * and nothing is mutated: every state (a cached fold, the state a refused command leaves) keeps its own map.
 * Undefined until the first close (an account that never held anything carries nothing).
 */
export type ClosedHolds = PersistentMap<string, HoldOutcome> | undefined;

/** How `holdId` closed, or undefined when it is not among the closed holds. */
export const closedOutcome = (closed: ClosedHolds, holdId: string): HoldOutcome | undefined => closed?.get(holdId);

/** The closed holds with `holdId` closed as `outcome`; `closed` itself is left as it was. */
export const withClosed = (closed: ClosedHolds, holdId: string, outcome: HoldOutcome): ClosedHolds => (closed ?? PersistentMap<string, HoldOutcome>()).set(holdId, outcome);
