import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readNachaFile } from '@payments/rails';
import type { CheckContext, Violation } from './checks';
import { isProduction } from './workload';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * The production part of a run, once quiescent: every acknowledged production payment reached the final status the
 * bank decided (R01 returns FAILED with PAYOUT_RETURNED, the rest COMPLETED), each payment is in exactly one outbox
 * file (read back from the files), every file is recorded WRITTEN with the bytes on disk, a return file dropped twice
 * recorded one outcome, and nothing was left for an operator.
 */
export async function checkRails(ctx: CheckContext): Promise<Violation[]> {
  const { db, records, bank, outbox } = ctx;
  const violations: Violation[] = [];
  const fail = (message: string, op?: number) => violations.push({ check: 'rails', message, op });

  const { rows: transactions } = await db.query<{ transaction_id: string; status: string; failure_reason: string | null; failure_detail: string | null }>(
    `SELECT transaction_id, status, body->>'failureReason' AS failure_reason, body->>'failureDetail' AS failure_detail FROM payments.transactions`,
  );
  const byId = new Map(transactions.map((t) => [t.transaction_id, t]));
  for (const r of records) {
    if (!isProduction(r.op.kind) || r.result.outcome !== 'acked') continue;
    const t = byId.get(r.resourceId!);
    if (!t) continue; // the lost check names it
    const expected = r.op.returned ? { status: 'FAILED', failure_reason: 'PAYOUT_RETURNED', failure_detail: 'R01' } : { status: 'COMPLETED', failure_reason: null, failure_detail: null };
    const actual = { status: t.status, failure_reason: t.failure_reason, failure_detail: t.failure_detail };
    if (JSON.stringify(actual) !== JSON.stringify(expected)) {
      fail(`op ${r.op.index} (${r.op.kind} ${r.resourceId}${r.op.returned ? `, returned ${r.op.returned.when} settlement` : ''}): ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`, r.op.index);
    }
  }

  // Each payment in exactly one written file, every file recorded with the bytes on disk; the outbox holds bank files only.
  const { rows: payments } = await db.query<{ payment_id: string; rail_reference: string; status: string; file_id: string | null; file_status: string | null }>(
    `SELECT p.payment_id, p.rail_reference, p.status, p.file_id, f.status AS file_status FROM payments.rail_payments p LEFT JOIN payments.rail_files f ON f.file_id = p.file_id`,
  );
  for (const p of payments.filter((p) => p.file_status !== 'WRITTEN')) fail(`rail payment ${p.payment_id} (${p.status}) is in no written file (file ${p.file_id ?? 'none'}, ${p.file_status ?? '-'})`);
  const { rows: files } = await db.query<{ file_id: string; name: string; status: string; sha256: string | null }>(`SELECT file_id, name, status, sha256 FROM payments.rail_files WHERE direction = 'OUTBOUND' ORDER BY name`);
  const onDisk = readdirSync(outbox).filter((n) => n.endsWith('.ach') && !n.startsWith('.')).sort();
  const foreign = readdirSync(outbox).filter((n) => !n.endsWith('.ach') && !n.startsWith('.'));
  if (foreign.length > 0) fail(`the outbox holds files that are no bank files: ${foreign.join(', ')}`);
  if (JSON.stringify(onDisk) !== JSON.stringify(files.map((f) => f.name))) fail(`outbox holds ${onDisk.join(', ')}; recorded: ${files.map((f) => `${f.name} (${f.status})`).join(', ')}`);
  const traces: string[] = [];
  for (const f of files) {
    const path = join(outbox, f.name);
    if (!existsSync(path)) continue;
    const content = readFileSync(path);
    if (f.status !== 'WRITTEN' || f.sha256 !== sha256(content)) fail(`file ${f.name} is ${f.status} with SHA-256 ${f.sha256}; on disk ${sha256(content)}`);
    traces.push(...readNachaFile(content.toString('ascii')).batches.flatMap((b) => b.entries.map((e) => e.traceNumber)));
  }
  const twice = [...new Set(traces.filter((t, i) => traces.indexOf(t) !== i))];
  if (twice.length > 0) fail(`trace numbers in two files (a payment sent twice): ${twice.join(', ')}`);
  const references = new Set(payments.map((p) => p.rail_reference));
  const unknown = traces.filter((t) => !references.has(t));
  const absent = [...references].filter((r) => !traces.includes(r));
  if (unknown.length > 0 || absent.length > 0) fail(`outbox files and rail payments differ: in files only ${unknown.join(', ') || '-'}; payments in no file ${absent.join(', ') || '-'}`);

  // Returns: one RETURNED outcome per returned payment, each return file imported once however often it was dropped.
  const { rows: outcomes } = await db.query<{ payment_id: string; n: number }>(`SELECT payment_id, count(*)::int AS n FROM payments.rail_outcomes WHERE kind = 'RETURNED' GROUP BY payment_id`);
  const returnedOutcomes = new Set(outcomes.map((o) => o.payment_id));
  for (const id of bank.returned) if (!returnedOutcomes.has(id)) fail(`payment ${id} was returned by the bank; no RETURNED outcome`);
  for (const o of outcomes) if (!bank.returned.has(o.payment_id) || o.n !== 1) fail(`payment ${o.payment_id}: ${o.n} RETURNED outcomes${bank.returned.has(o.payment_id) ? '' : ' (never returned)'}`);
  const { rows: inbound } = await db.query<{ sha256: string; name: string }>(`SELECT sha256, name FROM payments.rail_files WHERE direction = 'INBOUND'`);
  const sent = new Set([...bank.returnFiles.values()].map((c) => sha256(Buffer.from(c))));
  if (inbound.length !== sent.size || inbound.some((f) => !sent.has(f.sha256))) fail(`the bank sent ${sent.size} distinct return files (${bank.reimportsWritten} dropped twice); ${inbound.length} imported: ${inbound.map((f) => f.name).join(', ')}`);
  const { rows: exceptions } = await db.query<{ kind: string; message: string }>(`SELECT kind, message FROM payments.rail_exceptions WHERE status = 'OPEN'`);
  for (const e of exceptions) fail(`open rail exception ${e.kind}: ${e.message}`);
  return violations;
}

/**
 * Production webhooks go to an https endpoint (production's rule) nothing answers here, so they are checked where the
 * dispatcher queued them: every production transaction status change is queued once, and no transaction has the
 * same webhook twice (a re-imported return, a replayed settlement would show as a second FAILED or COMPLETED).
 */
export async function checkProductionWebhooks(ctx: CheckContext): Promise<Violation[]> {
  const violations: Violation[] = [];
  const { rows: missing } = await ctx.db.query<{ event_id: string; transaction_id: string; status: string }>(
    `SELECT e.event_id::text, e.data->'transaction'->>'id' AS transaction_id, e.data->'transaction'->>'status' AS status
       FROM payments.events e
      WHERE e.type = 'TransactionStatusChanged.v1' AND e.data->>'mode' = 'PRODUCTION'
        AND NOT EXISTS (SELECT 1 FROM webhooks.deliveries d WHERE d.event_id = e.event_id::text)
      ORDER BY e.global_position`,
  );
  if (missing.length > 0) violations.push({ check: 'webhooks', message: `${missing.length} production transaction status changes have no webhook queued: ${missing.slice(0, 10).map((r) => `${r.transaction_id} ${r.status} (event ${r.event_id})`).join(', ')}` });
  const { rows: twice } = await ctx.db.query<{ id: string; type: string; n: number }>(
    `SELECT data_json::jsonb->>'id' AS id, type, count(*)::int AS n FROM webhooks.deliveries
      WHERE mode = 'PRODUCTION' AND data_json::jsonb->>'id' LIKE 'Transaction:%' GROUP BY 1, 2 HAVING count(*) > 1`,
  );
  for (const r of twice) violations.push({ check: 'webhooks', message: `production webhook ${r.type} about ${r.id} queued ${r.n} times` });
  return violations;
}
