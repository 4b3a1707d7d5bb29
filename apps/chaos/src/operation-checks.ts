import type { CheckContext, Violation } from './checks';
import { tokenUnits } from './setup-stablecoins';
import { clientOf, Clients, OpRecord } from './workload';

/** The rows the operation checks read, once, at rest. */
interface Rows {
  transactions: { transaction_id: string; type: string; quote_id: string | null; status: string; amount: string }[];
  quotes: { quote_id: string; amount: string }[];
  cardTransactions: { transaction_id: string; descriptor: string }[];
  declines: { descriptor: string; token: string; reason: string }[];
  cardMessages: { transaction_id: string; kind: string; amount: string; token: string }[];
  actions: { action_id: string; amount: string | null }[];
  stablecoinOperations: { operation_id: string; amount: string }[];
  postings: { entry_id: string; account_id: string; amount: string; kind: string }[];
}

async function readRows(ctx: CheckContext): Promise<Rows> {
  const q = async <T>(sql: string) => (await ctx.db.query(sql)).rows as T[];
  return {
    // A payment's amount: what was sent, or (an incoming payment from outside: UMA) what was received.
    transactions: await q(`SELECT transaction_id, type, quote_id, status, coalesce(body->'sentAmount'->>'amount', body->'receivedAmount'->>'amount') AS amount FROM payments.transactions`),
    quotes: await q(`SELECT quote_id, body->>'totalSendingAmount' AS amount FROM quoting.quotes`),
    cardTransactions: await q(`SELECT transaction_id, body->'merchant'->>'descriptor' AS descriptor FROM cards.card_transactions`),
    declines: await q(`SELECT data->'merchant'->>'descriptor' AS descriptor, data->>'issuerTransactionToken' AS token, data->>'reason' AS reason FROM cards.events WHERE type = 'CardAuthorizationDeclined.v1'`),
    cardMessages: await q(`SELECT stream_id AS transaction_id, data->>'kind' AS kind, data->>'amount' AS amount, data->>'issuerTransactionToken' AS token FROM cards.events WHERE type = 'CardNetworkMessageReceived.v1'`),
    actions: await q(`SELECT action_id, body->'transferDetails'->>'amount' AS amount FROM agents.agent_actions`),
    stablecoinOperations: await q(`SELECT operation_id, body->>'amount' AS amount FROM payments.stablecoin_operations`),
    // Customers' postings, one row per entry: funding credits and payment legs (reversals apart).
    postings: await q(`SELECT p.entry_id, p.account_id, p.amount::text AS amount, p.kind FROM accounts.journal_postings p JOIN accounts.ledger_accounts a ON a.account_id = p.account_id WHERE a.owner = 'CUSTOMER' AND p.kind <> 'REVERSAL'`),
  };
}

/** The card simulators' names of the messages as the cards service records them. */
const MESSAGE_KIND: Record<string, string> = { authorization_advice: 'ADVICE', clearing: 'CLEARING', return: 'RETURN', return_reversal: 'RETURN_REVERSAL' };

/**
 * Every acknowledged operation exists, once; no operation (acknowledged or not: an unanswered first attempt may
 * legitimately have run once) has two effects. Effects are found by what is unique to the operation: its amount,
 * its card descriptor, its issuer token.
 */
export async function checkOperations(ctx: CheckContext): Promise<Violation[]> {
  const { world, records, clients } = ctx;
  const rows = await readRows(ctx);
  const violations: Violation[] = [];
  const lost = (r: OpRecord, why: string) => violations.push({ check: 'lost', op: r.op.index, message: `op ${r.op.index} (${r.op.kind} ${r.op.key}) acknowledged ${r.resourceId}: ${why}` });
  const duplicated = (r: OpRecord, what: string, ids: string[]) =>
    violations.push({ check: 'duplicated', op: r.op.index, message: `op ${r.op.index} (${r.op.kind} ${r.op.key}, amount ${r.op.amount}, ${describeAttempts(r)}): ${ids.length} ${what}: ${ids.join(', ')}` });
  const once = (r: OpRecord, what: string, ids: string[]) => {
    if (ids.length > 1) duplicated(r, what, ids);
  };
  const entries = (accountId: string, amount: number, kind: (k: string) => boolean) =>
    [...new Set(rows.postings.filter((p) => p.account_id === accountId && Number(p.amount) === amount && kind(p.kind)).map((p) => p.entry_id))];
  const isPayment = (k: string) => k.startsWith('PAYMENT_');
  const txIds = new Set(rows.transactions.map((t) => t.transaction_id));
  const payments = (type: string, amount: number) => rows.transactions.filter((t) => t.type === type && t.quote_id === null && Number(t.amount) === amount).map((t) => t.transaction_id);
  const quotesOf = (amount: number) => rows.quotes.filter((q) => Number(q.amount) === amount).map((q) => q.quote_id);
  const quoteTransactions = (amount: number) => rows.transactions.filter((t) => t.quote_id !== null && Number(t.amount) === amount).map((t) => t.transaction_id);
  const madeTransaction = (r: OpRecord) => {
    if (r.result.outcome === 'acked' && r.transactionId && !txIds.has(r.transactionId)) lost(r, `its transaction ${r.transactionId} does not exist`);
  };

  for (const r of records) {
    if (r.result.outcome === 'skipped') continue;
    const { op } = r;
    const acked = r.result.outcome === 'acked';
    const customer = world.customers[op.customer];
    switch (op.kind) {
      case 'transferOut':
      case 'transferIn':
      case 'prodTransferOut':
      case 'prodTransferIn':
      case 'umaReceive': {
        const type = op.kind === 'transferOut' || op.kind === 'prodTransferOut' ? 'OUTGOING' : 'INCOMING';
        const same = payments(type, op.amount);
        once(r, `${type} transactions`, same);
        const account = op.kind.startsWith('prod') ? world.production.usd : customer.usd;
        once(r, 'ledger entries', entries(account, type === 'OUTGOING' ? -op.amount : op.amount, isPayment));
        if (acked && !same.includes(r.resourceId!)) lost(r, same.length ? `the amount's transaction is ${same.join(', ')}` : 'no such transaction');
        break;
      }
      case 'quote':
      case 'realtimeQuote':
      case 'walletQuote':
      case 'agentQuote': {
        const same = quotesOf(op.amount);
        once(r, 'quotes', same);
        once(r, 'quote transactions', quoteTransactions(op.amount));
        if (op.kind === 'quote' || op.kind === 'agentQuote') once(r, 'ledger entries', entries(world.customers[op.kind === 'quote' ? op.customer : world.agent.customer].usd, -op.amount, isPayment));
        if (acked && !same.includes(r.resourceId!)) lost(r, same.length ? `the amount's quote is ${same.join(', ')}` : 'no such quote');
        if (op.immediate) madeTransaction(r);
        break;
      }
      case 'execute':
      case 'walletExecute':
      case 'agentExecute':
      case 'send':
      case 'agentDecide':
        madeTransaction(r);
        break;
      case 'fund': {
        const credits = entries(op.currency === 'EUR' ? customer.eur! : customer.usd, op.amount, (k) => k === 'SANDBOX_FUNDING');
        once(r, 'funding entries', credits);
        if (acked && credits.length === 0) lost(r, 'no funding entry');
        break;
      }
      case 'card': {
        const descriptor = op.card!.descriptor!;
        const opened = rows.cardTransactions.filter((t) => t.descriptor === descriptor).map((t) => t.transaction_id);
        const declined = rows.declines.filter((d) => d.descriptor === descriptor);
        once(r, 'card transactions', opened);
        once(r, 'declines', declined.map((d) => d.token));
        if (op.card!.decline) {
          if (opened.length > 0) violations.push({ check: 'lost', op: op.index, message: `op ${op.index} (${op.kind}, descriptor ${descriptor}) should be declined ${op.card!.decline}; it opened ${opened.join(', ')}` });
          if (acked && declined.length === 0) lost(r, `no CardAuthorizationDeclined.v1 for ${descriptor}`);
          if (acked && declined.some((d) => d.reason !== op.card!.decline)) lost(r, `declined ${declined.map((d) => d.reason).join(', ')}, expected ${op.card!.decline}`);
        } else if (acked && (opened.length === 0 || r.resourceId !== opened[0])) {
          lost(r, opened.length ? `the descriptor's card transaction is ${opened.join(', ')}, never listed as ${r.resourceId}` : `no card transaction for ${descriptor}`);
        }
        break;
      }
      case 'cardMessage': {
        const kind = MESSAGE_KIND[op.card!.simulation];
        const same = rows.cardMessages.filter((m) => m.transaction_id === r.resourceId && m.kind === (op.amount === 0 && kind === 'CLEARING' ? 'EXPIRY' : kind) && Number(m.amount ?? 0) === op.amount);
        once(r, `${kind} messages on ${r.resourceId}`, same.map((m) => m.token));
        if (acked && !same.some((m) => m.token === r.result.answer?.body?.issuerTransactionToken)) lost(r, `no ${kind} message ${r.result.answer?.body?.issuerTransactionToken} on ${r.resourceId}`);
        break;
      }
      case 'agentTransfer': {
        const same = rows.actions.filter((a) => Number(a.amount) === op.amount).map((a) => a.action_id);
        once(r, 'agent actions', same);
        once(r, 'OUTGOING transactions', payments('OUTGOING', op.amount));
        if (acked && !same.includes(r.resourceId!)) lost(r, 'no such agent action');
        madeTransaction(r);
        break;
      }
      case 'mint':
      case 'burn': {
        const same = rows.stablecoinOperations.filter((o) => o.amount === tokenUnits(op.amount)).map((o) => o.operation_id);
        once(r, 'stablecoin operations', same);
        if (acked && !same.includes(r.resourceId!)) lost(r, 'no such stablecoin operation');
        break;
      }
      case 'fundMint':
        break; // its effect is the mint's status (resource checks)
    }
  }
  // What a client sees: every acknowledged resource can be read back with the caller's credentials.
  for (const r of records) {
    if (r.result.outcome !== 'acked') continue;
    const read = readBack(r, clients);
    if (!read) continue;
    const answer = await read.client.call('GET', read.path, undefined, undefined);
    if (answer.outcome !== 'acked') lost(r, `GET ${read.path} answered ${answer.answer?.status ?? answer.outcome}`);
  }
  return violations;
}

/** Where a client reads back what an acknowledged operation made (undefined: nothing of its own to read). */
function readBack(r: OpRecord, clients: Clients): { client: Clients[keyof Clients]; path: string } | undefined {
  const client = clientOf(clients, r.op);
  switch (r.op.kind) {
    case 'fund':
    case 'fundMint':
      return undefined;
    case 'card':
      return r.op.card!.decline ? undefined : { client, path: `/transactions/${r.resourceId}` };
    case 'cardMessage':
      return { client, path: `/transactions/${r.resourceId}` };
    case 'quote':
    case 'execute':
    case 'realtimeQuote':
    case 'walletQuote':
    case 'walletExecute':
      return { client, path: `/quotes/${r.resourceId}` };
    case 'agentQuote':
      return { client, path: `/agents/me/quotes/${r.resourceId}` };
    case 'agentTransfer':
    case 'agentExecute':
      return { client, path: `/agents/me/actions/${r.resourceId}` };
    case 'agentDecide':
      return { client: clients.agent, path: `/agents/me/actions/${r.resourceId}` };
    case 'mint':
    case 'burn':
      return { client, path: `/stablecoin-operations/${r.resourceId}` };
    default:
      return { client, path: `/transactions/${r.resourceId}` };
  }
}

export function describeAttempts(r: OpRecord): string {
  const attempts = r.result.attempts.map((a) => (a.status ? `${a.status}${a.code ? ` ${a.code}` : ''}` : a.error ?? 'no answer'));
  return `${r.result.outcome} after ${collapse(attempts)}`;
}

/** "x, x, x, y" → "x ×3, y": retry histories are long and repetitive. */
function collapse(items: string[]): string {
  const out: string[] = [];
  for (let i = 0; i < items.length; ) {
    let j = i;
    while (j < items.length && items[j] === items[i]) j++;
    out.push(j - i > 1 ? `${items[i]} ×${j - i}` : items[i]);
    i = j;
  }
  return out.join(', ');
}
