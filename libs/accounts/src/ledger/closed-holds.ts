/** How a hold stopped reserving funds. */
export type HoldOutcome = 'CAPTURED' | 'RELEASED' | 'EXPIRED';

interface Entry {
  readonly holdId: string;
  readonly hash: number;
  readonly outcome: HoldOutcome;
}

/** Closed holds whose ids hash alike (the same 32 bits): a bucket, split into a trie when another hash joins. */
interface Leaf {
  readonly hash: number;
  readonly entries: readonly Entry[];
}

interface Trie {
  readonly slots: readonly (Trie | Leaf | undefined)[];
}

/**
 * The ids of an account's closed holds, as a persistent hash trie (16-way on the id's 32-bit hash). An account
 * remembers every hold it ever closed (a redelivered capture, release or placement must be recognised as done), and
 * a hot account closes many: recording one more copies one path of at most 8 nodes of 16 slots, never the whole
 * set, so the fold stays O(1) per event however many holds were closed before. Nothing is mutated: every state (a
 * cached fold, the state a refused command leaves) keeps its own set.
 */
export type ClosedHolds = Trie | undefined;

const BITS = 4;
const WIDTH = 1 << BITS;

/** How `holdId` closed, or undefined when it is not among the closed holds. */
export function closedOutcome(closed: ClosedHolds, holdId: string): HoldOutcome | undefined {
  const hash = hashOf(holdId);
  let node: Trie | Leaf | undefined = closed;
  for (let shift = 0; node && 'slots' in node; shift += BITS) node = node.slots[(hash >>> shift) & (WIDTH - 1)];
  return node?.hash === hash ? node.entries.find((e) => e.holdId === holdId)?.outcome : undefined;
}

/** The set with `holdId` closed as `outcome` (a hold closes once; a second close of it replaces the first). */
export function withClosed(closed: ClosedHolds, holdId: string, outcome: HoldOutcome): Trie {
  return insert(closed, { holdId, hash: hashOf(holdId), outcome }, 0);
}

function insert(trie: Trie | undefined, entry: Entry, shift: number): Trie {
  const slots = trie ? trie.slots.slice() : new Array<Trie | Leaf | undefined>(WIDTH).fill(undefined);
  const i = (entry.hash >>> shift) & (WIDTH - 1);
  const slot = slots[i];
  if (slot === undefined) slots[i] = { hash: entry.hash, entries: [entry] };
  else if ('slots' in slot) slots[i] = insert(slot, entry, shift + BITS);
  else if (slot.hash === entry.hash) slots[i] = { hash: slot.hash, entries: [...slot.entries.filter((e) => e.holdId !== entry.holdId), entry] };
  // Two hashes differ in one of their eight 4-bit digits, so a split ends before the shift runs out of bits.
  else slots[i] = insert(slot.entries.reduce<Trie>((t, e) => insert(t, e, shift + BITS), { slots: new Array(WIDTH).fill(undefined) }), entry, shift + BITS);
  return { slots };
}

/** FNV-1a over the id's UTF-16 code units. */
function hashOf(holdId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < holdId.length; i++) hash = Math.imul(hash ^ holdId.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
