import { ApiClient, CallResult } from './client';
import { sleep } from './platform-process';
import { Prng } from './prng';
import type { PlannedReturn } from './rail-bank';
import { EUR_SUFFIXES, PAYOUT_SUFFIXES, PULL_SUFFIXES, World } from './setup';

export type OpKind = 'transferOut' | 'transferIn' | 'quote' | 'execute' | 'fund' | 'prodTransferOut' | 'prodTransferIn';

/** Production operations: sent with the production credentials, moved by the NACHA connector and the run's bank. */
export const PRODUCTION_KINDS: readonly OpKind[] = ['prodTransferOut', 'prodTransferIn'];
export const isProduction = (kind: OpKind) => PRODUCTION_KINDS.includes(kind);

/** One planned operation. Accounts are named by customer index and sandbox suffix, so the plan needs no ids. */
export interface PlannedOp {
  index: number;
  kind: OpKind;
  key: string;
  /** Unique per run (derived from the index): each operation's effects can be counted by it afterwards. */
  amount: number;
  tag: string;
  customer: number;
  suffix?: string;
  quoteTo?: 'external' | 'internal';
  immediate?: boolean;
  /** execute: the index of the (non-immediate) quote operation it executes. */
  quoteOp?: number;
  /** prodTransferOut: the bank returns it (R01), before or after the calendar settles it, its file maybe twice. */
  returned?: PlannedReturn;
}

export interface KillPoint {
  /** Killed when this operation is about to be sent: a request count, never a wall-clock time. */
  atOp: number;
  /**
   * busy: before sending it, with requests on the wire; answer: once it is sent, the moment the next answer starts
   * arriving (the requests sent alongside are likely past their commit, their answers not yet out: the window
   * where a retry can run twice); quiet: once nothing is on the wire (timers, relays and consumers caught alone).
   */
  mode: 'busy' | 'answer' | 'quiet';
}

export interface Plan {
  seed: number;
  ops: PlannedOp[];
  kills: KillPoint[];
}

const WEIGHTS: Record<OpKind, number> = { transferOut: 30, transferIn: 15, quote: 30, execute: 10, fund: 15, prodTransferOut: 12, prodTransferIn: 4 };
const amountOf = (index: number) => 10_000 + index; // smallest unit; far from the opening balances and from each other

/** The whole workload and its kill points, from the seed alone. */
export function planWorkload(seed: number, opCount: number, killCount: number): Plan {
  const prng = new Prng(seed);
  const ops: PlannedOp[] = [];
  const executable: number[] = []; // quotes created without immediatelyExecute and not yet planned for execution
  for (let index = 0; index < opCount; index++) {
    let kind = prng.weighted(WEIGHTS);
    if (kind === 'execute' && executable.length === 0) kind = 'quote';
    const base = { index, kind, key: `chaos-${seed}-${index}`, amount: amountOf(index), tag: `chaos:${seed}:${index}`, customer: prng.int(0, 2) };
    switch (kind) {
      case 'transferOut':
        ops.push({ ...base, suffix: prng.pick(PAYOUT_SUFFIXES) });
        break;
      case 'transferIn':
        ops.push({ ...base, suffix: prng.pick(PULL_SUFFIXES) });
        break;
      case 'quote': {
        const quoteTo = prng.chance(0.7) ? 'external' : 'internal';
        const op: PlannedOp = { ...base, quoteTo, suffix: quoteTo === 'external' ? prng.pick(EUR_SUFFIXES) : undefined, immediate: prng.chance(0.5) };
        if (!op.immediate) executable.push(index);
        ops.push(op);
        break;
      }
      case 'execute': {
        const quoteOp = executable.splice(prng.int(0, executable.length - 1), 1)[0];
        ops.push({ ...base, customer: ops[quoteOp].customer, amount: ops[quoteOp].amount, quoteOp });
        break;
      }
      case 'fund':
      case 'prodTransferIn':
        ops.push(base);
        break;
      case 'prodTransferOut':
        ops.push({ ...base, returned: prng.chance(0.35) ? { when: prng.chance(0.5) ? 'before' : 'after', reimport: prng.chance(0.5) } : undefined });
        break;
    }
  }
  const kills = new Map<number, KillPoint>();
  const low = Math.max(1, Math.floor(opCount * 0.1));
  const high = Math.max(low, Math.floor(opCount * 0.9));
  for (let n = 0; n < killCount && kills.size < high - low + 1; ) {
    const atOp = prng.int(low, high);
    if (kills.has(atOp)) continue;
    kills.set(atOp, { atOp, mode: prng.weighted({ busy: 4, answer: 4, quiet: 2 }) });
    n++;
  }
  return { seed, ops, kills: [...kills.values()].sort((a, b) => a.atOp - b.atOp) };
}

export interface OpRecord {
  op: PlannedOp;
  method: string;
  path: string;
  body: unknown;
  /** skipped: an execute whose quote was never acknowledged. */
  result: CallResult | { outcome: 'skipped'; attempts: []; answer?: undefined };
  /** The resource the acknowledged answer names: Transaction:, Quote: or InternalAccount:. */
  resourceId?: string;
  /** Quotes and executions: the transaction the quote reserved. */
  transactionId?: string;
}

export interface Crasher {
  /** SIGKILL the platform; the returned promise settles when it is serving again. */
  crash(): Promise<void>;
}

/** The platform API as the sandbox credentials and as the production ones. */
export interface Clients {
  sandbox: ApiClient;
  production: ApiClient;
}

export const clientOf = (clients: Clients, kind: OpKind) => (isProduction(kind) ? clients.production : clients.sandbox);

/** The bank's plan: each returned payout by its (unique) amount. */
export function plannedReturns(plan: Plan): Map<number, PlannedReturn> {
  return new Map(plan.ops.flatMap((op) => (op.returned ? [[op.amount, op.returned] as const] : [])));
}

export interface WorkloadStats {
  records: OpRecord[];
  kills: number;
  retries: number;
}

/** The HTTP request of an operation; execute needs its quote's id, known only once that quote was answered. */
function requestOf(op: PlannedOp, world: World, quoteId?: string): { method: string; path: string; body: unknown } {
  const customer = world.customers[op.customer];
  switch (op.kind) {
    case 'transferOut':
      return { method: 'POST', path: '/transfer-out', body: { source: { accountId: customer.usd }, destination: { accountId: customer.usdExternal[op.suffix!] }, amount: op.amount, remittanceInformation: op.tag } };
    case 'transferIn':
      return { method: 'POST', path: '/transfer-in', body: { source: { accountId: customer.usdExternal[op.suffix!] }, destination: { accountId: customer.usd }, amount: op.amount } };
    case 'quote': {
      const destination = op.quoteTo === 'external' ? customer.eurExternal[op.suffix!] : customer.eur;
      const body = { source: { sourceType: 'ACCOUNT', accountId: customer.usd }, destination: { destinationType: 'ACCOUNT', accountId: destination }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: op.amount, description: op.tag, ...(op.immediate ? { immediatelyExecute: true } : {}) };
      return { method: 'POST', path: '/quotes', body };
    }
    case 'execute':
      return { method: 'POST', path: `/quotes/${quoteId}/execute`, body: {} };
    case 'fund':
      return { method: 'POST', path: `/sandbox/internal-accounts/${customer.usd}/fund`, body: { amount: op.amount } };
    case 'prodTransferOut':
      return { method: 'POST', path: '/transfer-out', body: { source: { accountId: world.production.usd }, destination: { accountId: world.production.usdExternal }, amount: op.amount } };
    case 'prodTransferIn':
      return { method: 'POST', path: '/transfer-in', body: { source: { accountId: world.production.usdExternal }, destination: { accountId: world.production.usd }, amount: op.amount } };
  }
}

/**
 * Runs the plan with `concurrency` operations in flight, crashing the platform at the plan's kill points. The order
 * in which operations are sent and the kill points are fixed by the plan; only timing varies between replays.
 */
export async function runWorkload(plan: Plan, world: World, clients: Clients, crasher: Crasher, concurrency: number): Promise<WorkloadStats> {
  const records: OpRecord[] = new Array(plan.ops.length);
  const done: Promise<void>[] = new Array(plan.ops.length);
  let retries = 0;
  let kills = 0;
  let restarting: Promise<void> = Promise.resolve();
  const inFlight = new Set<Promise<void>>();

  const execute = async (op: PlannedOp): Promise<void> => {
    let quoteId: string | undefined;
    if (op.kind === 'execute') {
      await done[op.quoteOp!];
      quoteId = records[op.quoteOp!].resourceId;
      if (!quoteId) {
        const { method, path, body } = requestOf(op, world, '(never answered)');
        records[op.index] = { op, method, path, body, result: { outcome: 'skipped', attempts: [] } };
        return;
      }
    }
    const { method, path, body } = requestOf(op, world, quoteId);
    const result = await clientOf(clients, op.kind).call(method, path, body, op.key, () => retries++);
    const record: OpRecord = { op, method, path, body, result };
    if (result.outcome === 'acked') {
      const answer = result.answer!.body ?? {};
      record.resourceId = answer.id;
      record.transactionId = op.kind === 'quote' || op.kind === 'execute' ? answer.transactionId : undefined;
    }
    records[op.index] = record;
  };

  const crash = () => {
    kills++;
    restarting = crasher.crash();
    restarting.catch(() => undefined); // awaited before the next kill and at the end; not an unhandled rejection meanwhile
  };
  const killAt = new Map(plan.kills.map((k) => [k.atOp, k]));
  for (const op of plan.ops) {
    const kill = killAt.get(op.index);
    if (kill) {
      await restarting; // one crash at a time: the previous restart must be serving first
      if (kill.mode === 'quiet') {
        // Wait (bounded) until nothing is on the wire; requests waiting to retry do not count.
        const deadline = Date.now() + 10_000;
        while (clients.sandbox.onWire + clients.production.onWire > 0 && Date.now() < deadline) await sleep(10);
      }
      if (kill.mode !== 'answer') crash();
    }
    while (inFlight.size >= concurrency) await Promise.race(inFlight);
    const answered = kill?.mode === 'answer' ? clientOf(clients, op.kind).nextAnswer(10_000) : undefined;
    const running = execute(op);
    done[op.index] = running;
    const tracked = running.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
    if (answered) {
      await answered;
      crash();
    }
  }
  await Promise.all(done);
  await restarting;
  return { records, kills, retries };
}
