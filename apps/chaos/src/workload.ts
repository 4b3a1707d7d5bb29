import { ApiClient, CallResult } from './client';
import { CardChain, CARD_CHAINS, CardSimulation, CardStep, declineOf, descriptorOf, followUpsOf } from './card-chains';
import { sleep } from './platform-process';
import { Prng } from './prng';
import type { PlannedReturn } from './rail-bank';
import { requestOf, resolveResource } from './requests';
import { AGENT_AMOUNT_BASE } from './setup-agents';
import { ClientName, CUSTOMERS, EUR_SUFFIXES, PAYOUT_SUFFIXES, PULL_SUFFIXES, World } from './setup';

/**
 * Every money operation of the platform (docs/payments.md, quotes.md, cards.md, agents.md, stablecoins.md,
 * wallet-auth.md, uma.md, rails.md). Kinds after a ':' in the comments need an earlier operation's answer.
 */
export type OpKind =
  | 'transferOut'
  | 'transferIn'
  | 'quote'
  | 'execute' // : a quote without immediatelyExecute
  | 'fund'
  | 'realtimeQuote' // a REALTIME_FUNDING quote
  | 'send' // : /sandbox/send delivers a realtime quote's funds
  | 'umaReceive'
  | 'card' // an authorization (or financial authorization, or a declined one) on the run's card
  | 'cardMessage' // : advice, clearing, return or return reversal on the card transaction
  | 'agentTransfer' // the agent's transfer-out: at once, waiting for approval, or over its limit (refused)
  | 'agentDecide' // : the platform approves or rejects the waiting action
  | 'agentQuote'
  | 'agentExecute' // : the agent executes its quote
  | 'mint'
  | 'fundMint' // : the wire a WIRE-funded mint waits for
  | 'burn'
  | 'walletQuote' // a quote from the second platform's Embedded Wallet
  | 'walletExecute' // : executed with the wallet session's stamp over its payloadToSign
  | 'prodTransferOut'
  | 'prodTransferIn';

/** Production operations: sent with the production credentials, moved by the NACHA connector and the run's bank. */
export const PRODUCTION_KINDS: readonly OpKind[] = ['prodTransferOut', 'prodTransferIn'];
export const isProduction = (kind: OpKind) => PRODUCTION_KINDS.includes(kind);

/** One operation, fully decided by the seed: its key, its unique amount and sandbox suffix, so the plan needs no ids. */
export interface PlannedOp {
  index: number;
  kind: OpKind;
  key: string;
  /** Unique per run (derived from the index): each operation's effects can be counted by it afterwards. */
  amount: number;
  tag: string;
  customer: number;
  /** The credentials it goes with (the customer's platform, production, the agent). */
  client: ClientName;
  suffix?: string;
  quoteTo?: 'external' | 'internal';
  immediate?: boolean;
  /** fund: the account's currency. */
  currency?: 'USD' | 'EUR';
  /** The operation whose answer this one needs (a quote to execute, an action to decide, a card transaction…). */
  after?: number;
  /** prodTransferOut: the bank returns it (R01), before or after the calendar settles it, its file maybe twice. */
  returned?: PlannedReturn;
  /** A refusal the platform must answer (a limit): acknowledging it is a violation. */
  refusal?: { status: number; code: string };
  /** card / cardMessage: the simulation, its chain (the opening operation's index) and the chain's shape. */
  card?: { simulation: CardSimulation; chain: number; shape: CardChain; descriptor?: string; decline?: string };
  /** agentDecide. */
  decision?: 'approve' | 'reject';
  /** mint. */
  mintFunding?: 'GRID_INTERNAL_ACCOUNT' | 'WIRE';
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

/** Operations that start something (follow-ups are planned with them, a few operations later). */
type StarterKind = 'transferOut' | 'transferIn' | 'quote' | 'fund' | 'realtimeQuote' | 'umaReceive' | 'card' | 'agentTransfer' | 'agentQuote' | 'mint' | 'burn' | 'walletQuote' | 'prodTransferOut' | 'prodTransferIn';
const WEIGHTS: Record<StarterKind, number> = {
  transferOut: 20,
  transferIn: 9,
  quote: 18,
  fund: 8,
  realtimeQuote: 4,
  umaReceive: 4,
  card: 12,
  agentTransfer: 6,
  agentQuote: 3,
  mint: 5,
  burn: 3,
  walletQuote: 3,
  prodTransferOut: 10,
  prodTransferIn: 3,
};
const amountOf = (index: number) => 10_000 + index; // smallest unit; far from the opening balances and from each other
/** Wallet quotes' amounts: `amountOf × this`, still unique, far above every other operation's. */
const WALLET_AMOUNT_FACTOR = 1_000;
/** The second platform's customer (World.customers[OTHER]); its external accounts carry these suffixes only. */
export const OTHER = CUSTOMERS;
const OTHER_SUFFIXES = ['789', '002', '005'] as const;

/** The whole workload and its kill points, from the seed alone. */
export function planWorkload(seed: number, opCount: number, killCount: number): Plan {
  const prng = new Prng(seed);
  const ops: PlannedOp[] = [];
  const executable: number[] = []; // quotes created without immediatelyExecute and not yet planned for execution
  /** Follow-ups waiting for their turn: each is sent a few operations after the one it needs. */
  const later: { due: number; make: (index: number) => PlannedOp }[] = [];
  const follow = (after: number, make: (index: number, base: Omit<PlannedOp, 'kind' | 'client' | 'customer'>) => PlannedOp) => {
    later.push({ due: after + prng.int(1, 6), make: (index) => make(index, { index, key: `chaos-${seed}-${index}`, amount: amountOf(index), tag: `chaos:${seed}:${index}`, after }) });
  };
  const sandboxCustomer = () => prng.int(0, CUSTOMERS - 1);
  for (let index = 0; index < opCount; index++) {
    const due = later.findIndex((f) => f.due <= index);
    if (due >= 0) {
      ops.push(later.splice(due, 1)[0].make(index));
      continue;
    }
    let kind: StarterKind | 'execute' = prng.weighted(WEIGHTS);
    if (executable.length > 0 && prng.chance(0.1)) kind = 'execute';
    const base = { index, key: `chaos-${seed}-${index}`, amount: amountOf(index), tag: `chaos:${seed}:${index}` };
    switch (kind) {
      case 'transferOut':
      case 'transferIn': {
        // A quarter of the transfers are the second platform's.
        const customer = prng.chance(0.25) ? OTHER : sandboxCustomer();
        const suffixes = customer === OTHER ? OTHER_SUFFIXES : kind === 'transferOut' ? PAYOUT_SUFFIXES : PULL_SUFFIXES;
        ops.push({ ...base, kind, customer, client: customer === OTHER ? 'other' : 'sandbox', suffix: prng.pick(suffixes) });
        break;
      }
      case 'fund': {
        const customer = prng.chance(0.2) ? OTHER : sandboxCustomer();
        ops.push({ ...base, kind, customer, client: customer === OTHER ? 'other' : 'sandbox', currency: customer !== OTHER && prng.chance(0.3) ? 'EUR' : 'USD' });
        break;
      }
      case 'quote': {
        const quoteTo = prng.chance(0.7) ? 'external' : 'internal';
        const op: PlannedOp = { ...base, kind, customer: sandboxCustomer(), client: 'sandbox', quoteTo, suffix: quoteTo === 'external' ? prng.pick(EUR_SUFFIXES) : undefined, immediate: prng.chance(0.5) };
        if (!op.immediate) executable.push(index);
        ops.push(op);
        break;
      }
      case 'execute': {
        const quoteOp = executable.splice(prng.int(0, executable.length - 1), 1)[0];
        ops.push({ ...base, kind, customer: ops[quoteOp].customer, client: 'sandbox', amount: ops[quoteOp].amount, after: quoteOp });
        break;
      }
      case 'realtimeQuote': {
        ops.push({ ...base, kind, customer: sandboxCustomer(), client: 'sandbox' });
        // Most realtime quotes get their funds; the rest stay PENDING (until they expire).
        if (prng.chance(0.85)) follow(index, (_, b) => ({ ...b, kind: 'send', customer: ops[index].customer, client: 'sandbox', amount: ops[index].amount }));
        break;
      }
      case 'umaReceive': {
        const customer = prng.chance(0.25) ? OTHER : sandboxCustomer();
        ops.push({ ...base, kind, customer, client: customer === OTHER ? 'other' : 'sandbox' });
        break;
      }
      case 'card': {
        const shape = prng.weighted(CARD_CHAINS);
        const simulation: CardSimulation = shape === 'financial' ? 'financial_authorization' : 'authorization';
        ops.push({ ...base, kind, customer: -1, client: 'sandbox', card: { simulation, chain: index, shape, descriptor: descriptorOf(shape, index), decline: declineOf(shape) } });
        // Each message needs the one before it applied: the next is planned once this one has its index.
        const chain = (after: number, steps: CardStep[]) => {
          if (steps.length === 0) return;
          const [step, ...rest] = steps;
          follow(after, (i, b) => {
            chain(i, rest);
            return { ...b, kind: 'cardMessage', customer: -1, client: 'sandbox', amount: step.amount ?? 0, card: { simulation: step.simulation, chain: index, shape } };
          });
        };
        chain(index, followUpsOf(shape, base.amount, prng.chance(0.5)));
        break;
      }
      case 'agentTransfer': {
        const band = prng.weighted({ auto: 5, approval: 4, overLimit: 1 });
        const amount = base.amount + AGENT_AMOUNT_BASE[band];
        ops.push({ ...base, kind, amount, customer: -1, client: 'agent', refusal: band === 'overLimit' ? { status: 403, code: 'LIMIT_EXCEEDED' } : undefined });
        if (band === 'approval' && prng.chance(0.9)) {
          const decision = prng.chance(0.6) ? 'approve' : 'reject';
          follow(index, (_, b) => ({ ...b, kind: 'agentDecide', customer: -1, client: 'sandbox', amount, decision }));
        }
        break;
      }
      case 'agentQuote':
        ops.push({ ...base, kind, customer: -1, client: 'agent' });
        follow(index, (_, b) => ({ ...b, kind: 'agentExecute', customer: -1, client: 'agent', amount: base.amount }));
        break;
      case 'mint': {
        // Amounts ending in 004 get a 0.6 s funding window (sandbox magic): a wire could not be in time.
        const mintFunding = base.amount % 1000 !== 4 && prng.chance(0.5) ? 'WIRE' : 'GRID_INTERNAL_ACCOUNT';
        ops.push({ ...base, kind, customer: sandboxCustomer(), client: 'sandbox', mintFunding });
        if (mintFunding === 'WIRE') follow(index, (_, b) => ({ ...b, kind: 'fundMint', customer: ops[index].customer, client: 'sandbox', amount: base.amount }));
        break;
      }
      case 'burn':
        ops.push({ ...base, kind, customer: sandboxCustomer(), client: 'sandbox' });
        break;
      case 'walletQuote': {
        // USDB quotes pay a network fee: an amount of cents would be below it (AMOUNT_BELOW_FEES).
        const amount = base.amount * WALLET_AMOUNT_FACTOR;
        ops.push({ ...base, kind, amount, customer: OTHER, client: 'other' });
        follow(index, (_, b) => ({ ...b, kind: 'walletExecute', customer: OTHER, client: 'other', amount }));
        break;
      }
      case 'prodTransferIn':
        ops.push({ ...base, kind, customer: -1, client: 'production' });
        break;
      case 'prodTransferOut':
        ops.push({ ...base, kind, customer: -1, client: 'production', returned: prng.chance(0.35) ? { when: prng.chance(0.5) ? 'before' : 'after', reimport: prng.chance(0.5) } : undefined });
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
  /** Headers the request carried besides its key (a wallet signature): a replay sends them again. */
  headers?: Record<string, string>;
  /** skipped: its earlier operation was never acknowledged (or did not leave what it needs). */
  result: CallResult | { outcome: 'skipped'; attempts: []; answer?: undefined };
  /** The resource the acknowledged answer names (for a card simulation: the card transaction it opened or changed). */
  resourceId?: string;
  /** Quotes, executions and agent actions: the transaction they made. */
  transactionId?: string;
}

export interface Crasher {
  /** SIGKILL the platform; the returned promise settles when it is serving again. */
  crash(): Promise<void>;
}

/** The platform API as each of the workload's callers. */
export type Clients = Record<ClientName, ApiClient>;

export const clientOf = (clients: Clients, op: PlannedOp) => clients[op.client];

/** The bank's plan: each returned payout by its (unique) amount. */
export function plannedReturns(plan: Plan): Map<number, PlannedReturn> {
  return new Map(plan.ops.flatMap((op) => (op.returned ? [[op.amount, op.returned] as const] : [])));
}

export interface WorkloadStats {
  records: OpRecord[];
  kills: number;
  retries: number;
}

/** The card simulators answer 409 CONFLICT while the transaction's previous message is being applied: "retry shortly". */
const RETRY_CODES: Partial<Record<OpKind, readonly string[]>> = { cardMessage: ['CONFLICT'] };

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
  const onWire = () => Object.values(clients).reduce((n, c) => n + c.onWire, 0);

  const execute = async (op: PlannedOp): Promise<void> => {
    const previous = op.after === undefined ? undefined : (await done[op.after], records[op.after]);
    const request = await requestOf(op, world, previous);
    if (!request) {
      records[op.index] = { op, method: '-', path: '-', body: undefined, result: { outcome: 'skipped', attempts: [] } };
      return;
    }
    const { method, path, body, headers } = request;
    const client = clientOf(clients, op);
    const result = await client.call(method, path, body, op.key, { headers, retryCodes: RETRY_CODES[op.kind], onRetry: () => retries++ });
    const record: OpRecord = { op, method, path, body, headers, result };
    if (result.outcome === 'acked') Object.assign(record, await resolveResource(op, result.answer!.body ?? {}, world, client, previous));
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
        while (onWire() > 0 && Date.now() < deadline) await sleep(10);
      }
      if (kill.mode !== 'answer') crash();
    }
    while (inFlight.size >= concurrency) await Promise.race(inFlight);
    const answered = kill?.mode === 'answer' ? clientOf(clients, op).nextAnswer(10_000) : undefined;
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
