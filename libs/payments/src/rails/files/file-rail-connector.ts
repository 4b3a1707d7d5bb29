import type { EntityManager } from 'typeorm';
import { v5 as uuidv5, v7 as uuidv7 } from 'uuid';
import { ApiError, capabilitiesOf, DEFAULT_INBOX_MAX_BYTES, fileLocationOf, RailCapabilities, RailConnectorConfig, TransactionFailureReason } from '@payments/contracts';
import { queryRows, TimerRow } from '@payments/eventsourcing';
import { FileExistsError, FileStore, sha256Of } from '@payments/rails';
import type { EgressClient } from '@payments/runtime';
import type { RailConnector, RailImportResult, RailOrder } from '../rail-connector';
import type { RailFileRow } from '../rail-file-row';
import type { RailPaymentRow } from '../rail-payments';
import { RAIL_CONNECTOR_TIMER, RailConnectorContext } from '../rails';
import { fileStoreFor } from './file-store-for';
import { inRailOrder } from '../outcome-rules';
import type { FileRailKind, InboundEntry, InboundFormat, OutboundFileMeta, OutboundFormat, ParsedInboundFile } from './file-format';

const SETTLE_TIMER_NAMESPACE = '6f1e9a3c-5b27-4d8e-a4c1-3e7d2b9f0a68';
const OVERSIZED_NAMESPACE = 'c3a9e0d4-7f61-4b2e-9d85-1a6f4e2b7c90';


const utcDay = (iso: string) => iso.slice(0, 10).replace(/-/g, '');

/**
 * A bank-file rail (NACHA, ISO 20022): payments accepted as SUBMITTED are written into files in an outbox directory
 * the bank (or an SFTP job) collects; return and status files are imported from an inbox directory or by an operator.
 * Either side may be an S3-compatible bucket instead of a directory (fileStoreFor).
 *
 * Exactly one file per payment: a file is first *claimed* in one transaction (its row, status WRITING, with the
 * creation time and day sequence that fix its bytes, and its payments' `file_id`), then written (atomically, never
 * rewritten: the same bytes again answer the stored file), then recorded WRITTEN. A crash after the claim rewrites
 * the same bytes on restart (`recover`), so a file the bank may already have fetched is never changed and no payment
 * lands in two files. Claims of one connector are serialized by an advisory lock, across replicas too.
 *
 * Imports have one effect: the file's SHA-256 is unique among imported files, and its outcomes, exceptions and row
 * commit together. A malformed or foreign file is refused whole before anything is written.
 */
export class FileRailConnector implements RailConnector {
  readonly capabilities: RailCapabilities;
  private readonly outbound: OutboundFormat;
  private readonly inbound: InboundFormat[];
  private readonly outbox: FileStore;
  private readonly inbox: FileStore;
  private loop?: { stop: () => void; done: Promise<void> };
  /**
   * Inbox files already dealt with (imported, duplicate, refused, too large), by name and version (size, modification
   * time): each is read and hashed once, not every round. Kept in memory: after a restart a file is read once more,
   * and its SHA-256 (unique among imported files) or its exception's derived id makes that change nothing.
   */
  private readonly seen = new Map<string, string>();

  constructor(
    private readonly context: RailConnectorContext,
    kind: FileRailKind,
    /** Checks a bucket's endpoint like every outbound call (a directory needs none). */
    egress?: EgressClient,
  ) {
    this.capabilities = capabilitiesOf(context.config);
    this.outbound = kind.outbound(context.config);
    this.inbound = kind.inbound(context.config);
    this.outbox = fileStoreFor(fileLocationOf(context.config, 'outbox'), process.env, { egress, purpose: `rails connector ${context.config.id} outbox` });
    this.inbox = fileStoreFor(fileLocationOf(context.config, 'inbox'), process.env, { egress, purpose: `rails connector ${context.config.id} inbox` });
  }

  get config(): RailConnectorConfig {
    return this.context.config;
  }

  private get schema(): string {
    return this.context.schema;
  }

  validate(order: RailOrder): void {
    this.outbound.validate(order);
  }

  railReference(order: RailOrder, sequence: number): string {
    return this.outbound.railReference(order, sequence);
  }

  /** Nothing to do now: the next batch round picks SUBMITTED payments up. */
  async accepted(): Promise<void> {}


  start(): void {
    if (this.loop) return;
    let stopped = false;
    let wake: () => void = () => undefined;
    const intervalMs = (this.config.batchIntervalSeconds ?? 60) * 1000;
    const done = (async () => {
      while (!stopped) {
        await this.round().catch((error: unknown) => this.context.log(`rails ${this.config.id}: a batch round failed`, error));
        if (stopped) break;
        await new Promise<void>((resolve) => {
          const pause = setTimeout(resolve, intervalMs);
          wake = () => (clearTimeout(pause), resolve());
        });
      }
    })();
    this.loop = { stop: () => ((stopped = true), wake()), done };
  }

  async stop(): Promise<void> {
    if (!this.loop) return;
    this.loop.stop();
    await this.loop.done;
    this.loop = undefined;
  }

  /** One round: finish files a crash left half-done, write what is pending, import what arrived. */
  async round(): Promise<void> {
    // Directories exist from the first round, so a bank's SFTP job (or an operator) has somewhere to put files.
    await Promise.all([this.outbox.prepare(), this.inbox.prepare()]);
    await this.recover();
    while (await this.writeNextFile()) {
      // files of at most maxEntries payments, until nothing is pending
    }
    await this.importInbox();
  }

  /** Files claimed but not recorded WRITTEN (a crash between the claim and the record): written again, same bytes. */
  async recover(): Promise<void> {
    const open = await queryRows<RailFileRow>(this.context.dataSource, `SELECT * FROM ${this.schema}.rail_files WHERE connector_id = $1 AND direction = 'OUTBOUND' AND status = 'WRITING' ORDER BY created_at`, [this.config.id]);
    for (const file of open) await this.finish(file);
  }

  /** Claims up to maxEntries SUBMITTED payments into a new file and writes it; the file id, or undefined when none were pending. */
  async writeNextFile(): Promise<string | undefined> {
    const file = await this.context.dataSource.transaction(async (tx) => {
      await queryRows(tx, `SELECT pg_advisory_xact_lock(hashtext($1))`, [`rails.files.${this.config.id}`]);
      const createdAt = new Date().toISOString();
      const [{ n }] = await queryRows<{ n: number }>(
        tx,
        `SELECT count(*)::int AS n FROM ${this.schema}.rail_files WHERE connector_id = $1 AND direction = 'OUTBOUND' AND (meta->>'createdAt') LIKE $2`,
        [this.config.id, `${createdAt.slice(0, 10)}%`],
      );
      // The day's files are all used (NACHA: 36 file id modifiers): payments wait for the next UTC day, visible as
      // payments_rail_payments_pending. A file claimed beyond the limit could never be written.
      if (this.outbound.maxFilesPerDay !== undefined && n >= this.outbound.maxFilesPerDay) return undefined;
      const pending = await queryRows<{ payment_id: string }>(
        tx,
        `SELECT payment_id FROM ${this.schema}.rail_payments WHERE connector_id = $1 AND status = 'SUBMITTED' ORDER BY sequence LIMIT $2 FOR UPDATE`,
        [this.config.id, this.outbound.maxEntries],
      );
      if (pending.length === 0) return undefined;
      const meta: OutboundFileMeta = { createdAt, sequenceOfDay: n + 1, fileId: `RailFile:${uuidv7()}` };
      const name = `${this.config.id}-${utcDay(createdAt)}-${String(meta.sequenceOfDay).padStart(3, '0')}.${this.outbound.extension}`;
      const [row] = await queryRows<RailFileRow>(
        tx,
        `INSERT INTO ${this.schema}.rail_files (file_id, connector_id, direction, format, name, status, meta) VALUES ($1, $2, 'OUTBOUND', $3, $4, 'WRITING', $5::jsonb) RETURNING *`,
        [meta.fileId, this.config.id, this.outbound.name, name, JSON.stringify(meta)],
      );
      await queryRows(tx, `UPDATE ${this.schema}.rail_payments SET status = 'FILED', file_id = $1, updated_at = now() WHERE payment_id = ANY($2::text[])`, [meta.fileId, pending.map((p) => p.payment_id)]);
      return row;
    });
    if (!file) return undefined;
    await this.finish(file);
    return file.file_id;
  }

  /**
   * Writes a claimed file from what the claim fixed, then records it WRITTEN with its settlements. The outbox holds
   * the bank's files only: which payments a file carries, its totals and SHA-256 are the database's (rail_files,
   * rail_payments.file_id, fixed at the claim), which is also all `recover` needs after a crash.
   */
  private async finish(file: RailFileRow): Promise<void> {
    const payments = await queryRows<RailPaymentRow>(this.context.dataSource, `SELECT * FROM ${this.schema}.rail_payments WHERE file_id = $1 ORDER BY sequence`, [file.file_id]);
    const meta = file.meta as unknown as OutboundFileMeta;
    let written;
    try {
      written = this.outbound.write(payments, { createdAt: meta.createdAt, sequenceOfDay: meta.sequenceOfDay, fileId: meta.fileId });
    } catch (error) {
      // Orders are validated before they are recorded, so this is a configuration change or a bug: an operator must see it.
      await this.context.exceptions.record(this.context.dataSource, {
        exceptionId: `RailException:${file.file_id}/unwritable`,
        connectorId: this.config.id,
        fileId: file.file_id,
        kind: 'UNWRITABLE_FILE',
        message: `file ${file.name} cannot be written (its payments wait in it): ${error instanceof Error ? error.message : String(error)}`,
      });
      return;
    }
    let stored;
    try {
      stored = await this.outbox.write(file.name, written.content);
    } catch (error) {
      if (!(error instanceof FileExistsError)) throw error;
      // Another file holds the name (an operator put it there?): never overwrite; the file stays WRITING for an operator.
      await this.context.exceptions.record(this.context.dataSource, {
        exceptionId: `RailException:${file.file_id}/name-taken`,
        connectorId: this.config.id,
        fileId: file.file_id,
        kind: 'UNWRITABLE_FILE',
        message: `outbox file ${file.name} exists with other content: file ${file.file_id} was not written (its payments wait in it)`,
      });
      return;
    }
    await this.context.dataSource.transaction(async (tx) => {
      const updated = await queryRows(
        tx,
        `UPDATE ${this.schema}.rail_files SET status = 'WRITTEN', sha256 = $2, size_bytes = $3, entry_count = $4, total_amount = $5, meta = meta || $6::jsonb, written_at = now()
          WHERE file_id = $1 AND status = 'WRITING' RETURNING 1`,
        [file.file_id, stored.sha256, stored.bytes, written.entryCount, written.totalAmount, JSON.stringify({ summary: written.summary })],
      );
      if (updated.length === 0) return; // another replica recorded it
      for (const [settlesAt, ids] of groupBy(written.settlesAt ?? {})) {
        await queryRows(tx, `UPDATE ${this.schema}.rail_payments SET settles_at = $2 WHERE payment_id = ANY($1::text[])`, [ids, settlesAt]);
        await this.context.timers.schedule(tx, {
          id: uuidv5(`${file.file_id}/${settlesAt}`, SETTLE_TIMER_NAMESPACE),
          name: RAIL_CONNECTOR_TIMER,
          delayMs: Math.max(0, Date.parse(settlesAt) - Date.now()),
          realTime: true,
          payload: { connectorId: this.config.id, fileId: file.file_id, settlesAt },
        });
      }
    });
  }

  /**
   * The calendar's word: payments of the file due at this moment that neither a return nor a rejection reached are
   * settled (ACH: no return by the effective date). The moment comes from the payload, not the clock, so a timer
   * fired late or early (an operator advancing it) settles exactly the payments it was scheduled for.
   */
  async onTimer(timer: TimerRow): Promise<void> {
    const { fileId, settlesAt } = timer.payload as { fileId: string; settlesAt: string };
    await this.context.dataSource.transaction(async (tx) => {
      const due = await queryRows<{ payment_id: string }>(tx, `SELECT payment_id FROM ${this.schema}.rail_payments WHERE file_id = $1 AND settles_at = $2 AND status = 'FILED' FOR UPDATE`, [fileId, settlesAt]);
      for (const p of due) await this.context.outcomes.record(tx, { paymentId: p.payment_id, kind: 'SETTLED', source: `calendar:${fileId}` });
    });
  }

  recognizes(content: Buffer): boolean {
    return this.inbound.some((f) => f.recognizes(content));
  }

  async importFile(input: { name: string; content: Buffer; importedBy: string }): Promise<RailImportResult> {
    const sha256 = sha256Of(input.content);
    const existing = await this.importedBySha(sha256);
    if (existing) return this.resultOf(existing, true);
    const parsed = this.parse(input.content);
    const fileId = `RailFile:${uuidv7()}`;
    const counts = await this.context.dataSource.transaction(async (tx) => {
      const inserted = await queryRows<RailFileRow>(
        tx,
        `INSERT INTO ${this.schema}.rail_files (file_id, connector_id, direction, format, name, status, sha256, size_bytes, entry_count, meta, imported_by, content, written_at)
         VALUES ($1, $2, 'INBOUND', $3, $4, 'IMPORTED', $5, $6, $7, $8::jsonb, $9, $10, now()) ON CONFLICT (sha256) WHERE direction = 'INBOUND' DO NOTHING RETURNING *`,
        [fileId, this.config.id, parsed.format, input.name.slice(0, 200), sha256, input.content.length, parsed.entries.length, JSON.stringify({ summary: parsed.summary }), input.importedBy, input.content],
      );
      if (inserted.length === 0) return undefined; // a concurrent import of the same bytes won
      let outcomes = 0;
      let exceptions = 0;
      // In the rail's order: a payment's settlement before its return, whatever order the file lists them in.
      for (const { entry, index } of inRailOrder(parsed.entries, (e) => (e.type === 'OUTCOME' ? e.kind : undefined))) {
        const effect = await this.importEntry(tx, fileId, index, entry);
        if (effect === 'outcome') outcomes++;
        if (effect === 'exception') exceptions++;
      }
      await queryRows(tx, `UPDATE ${this.schema}.rail_files SET meta = meta || $2::jsonb WHERE file_id = $1`, [fileId, JSON.stringify({ outcomes, exceptions })]);
      return { outcomes, exceptions };
    });
    if (!counts) return this.resultOf((await this.importedBySha(sha256))!, true);
    return { fileId, connectorId: this.config.id, format: parsed.format, name: input.name, sha256, duplicate: false, entries: parsed.entries.length, ...counts };
  }

  /** Outbound: from the outbox (a file still WRITING, or moved away, is not there); inbound: the bytes kept at import. */
  async readFile(file: RailFileRow): Promise<Buffer | undefined> {
    if (file.direction === 'OUTBOUND') return file.status === 'WRITING' ? undefined : this.outbox.read(file.name).catch(() => undefined);
    const [row] = await queryRows<{ content: Buffer | null }>(this.context.dataSource, `SELECT content FROM ${this.schema}.rail_files WHERE file_id = $1`, [file.file_id]);
    return row?.content ?? undefined;
  }

  /**
   * Every inbox file not dealt with yet: read and hashed once per version; one over `inboxMaxBytes` is not read at all.
   * A refused or oversized file becomes one exception (an operator looks at it) and is skipped afterwards.
   */
  private async importInbox(): Promise<void> {
    const files = await this.inbox.list().catch(() => []);
    const maxBytes = this.config.inboxMaxBytes ?? DEFAULT_INBOX_MAX_BYTES;
    for (const f of files) {
      if (this.seen.get(f.name) === f.version) continue;
      if (f.bytes > maxBytes) {
        await this.context.exceptions.record(this.context.dataSource, {
          exceptionId: `RailException:oversized:${uuidv5(`${this.config.id}/${f.name}/${f.version}`, OVERSIZED_NAMESPACE)}`,
          connectorId: this.config.id,
          kind: 'REFUSED_FILE',
          message: `inbox file ${f.name} is ${f.bytes} bytes, over the ${maxBytes} bytes this connector reads (inboxMaxBytes): not imported; import it by hand if it is genuine`,
          detail: { name: f.name, bytes: f.bytes, maxBytes },
        });
        this.seen.set(f.name, f.version);
        continue;
      }
      const content = await this.inbox.read(f.name);
      const sha256 = sha256Of(content);
      if (!(await this.importedBySha(sha256))) {
        try {
          await this.importFile({ name: f.name, content, importedBy: 'inbox' });
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          await this.context.exceptions.record(this.context.dataSource, {
            exceptionId: `RailException:refused:${sha256}`,
            connectorId: this.config.id,
            kind: 'REFUSED_FILE',
            message: `inbox file ${f.name} was refused: ${error.message}`,
            detail: { name: f.name, sha256 },
          });
        }
      }
      this.seen.set(f.name, f.version);
    }
  }

  private parse(content: Buffer): ParsedInboundFile {
    const format = this.inbound.find((f) => f.recognizes(content));
    if (!format) throw new ApiError('INVALID_INPUT', `file: not a return or status file connector ${this.config.id} reads`, { errors: [{ field: 'file', message: 'unrecognized format' }] });
    try {
      return format.parse(content);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new ApiError('INVALID_INPUT', `file: refused whole, nothing imported: ${message}`, { errors: [{ field: 'file', message }] });
    }
  }

  /** One entry's effect, in the import's transaction. Exception ids are derived from the file and entry. */
  private async importEntry(tx: EntityManager, fileId: string, index: number, entry: InboundEntry): Promise<'outcome' | 'exception' | 'none'> {
    const exceptionId = `RailException:${fileId}/${index}`;
    if (entry.type === 'OUTCOME' || entry.type === 'NOTICE') {
      const payment = await this.context.payments.byReference(tx, this.config.id, entry.railReference);
      if (!payment) {
        await this.context.exceptions.record(tx, { exceptionId, connectorId: this.config.id, fileId, kind: 'UNMATCHED_ENTRY', message: `${entry.type === 'OUTCOME' ? entry.kind : entry.code} for ${entry.railReference}: no payment of ours has this reference`, detail: entry.raw });
        return 'exception';
      }
      if (entry.type === 'NOTICE') {
        await this.context.exceptions.record(tx, { exceptionId, connectorId: this.config.id, fileId, paymentId: payment.payment_id, kind: 'NOTIFICATION_OF_CHANGE', message: `${entry.code}: ${entry.message} (external account ${payment.external_account_id})`, detail: entry.raw });
        return 'exception';
      }
      // A report of another amount than we sent is not about this payment as we know it: an operator decides.
      const amount = entry.raw.amount;
      const currency = entry.raw.currency;
      if ((typeof amount === 'number' && amount !== Number(payment.amount)) || (typeof currency === 'string' && currency !== payment.currency)) {
        await this.context.exceptions.record(tx, {
          exceptionId,
          connectorId: this.config.id,
          fileId,
          paymentId: payment.payment_id,
          kind: 'AMOUNT_MISMATCH',
          message: `${entry.kind} for ${entry.railReference} reports ${String(amount)} ${String(currency ?? payment.currency)}, the payment is ${payment.amount} ${payment.currency}: nothing changed`,
          detail: entry.raw,
        });
        return 'exception';
      }
      const recorded = await this.context.outcomes.record(tx, { paymentId: payment.payment_id, kind: entry.kind, ...(entry.failureReason ? { failureReason: entry.failureReason } : {}), ...(entry.railCode ? { railCode: entry.railCode } : {}), source: fileId });
      return recorded ? 'outcome' : 'none';
    }
    if (entry.type === 'CREDIT') return this.importCredit(tx, fileId, index, exceptionId, entry);
    // Acknowledgements and pending statuses change nothing.
    if (entry.raw.informational === true) return 'none';
    // A whole file refused by the bank (pain.002 group status RJCT): none of its payments was made, each fails with the code.
    if (entry.raw.level === 'GROUP' && typeof entry.raw.fileId === 'string') {
      const members = await queryRows<{ payment_id: string }>(tx, `SELECT payment_id FROM ${this.schema}.rail_payments WHERE file_id = $1 AND connector_id = $2 AND status = 'FILED'`, [entry.raw.fileId, this.config.id]);
      if (members.length > 0) {
        for (const p of members) {
          await this.context.outcomes.record(tx, {
            paymentId: p.payment_id,
            kind: 'REJECTED',
            ...(typeof entry.raw.failureReason === 'string' ? { failureReason: entry.raw.failureReason as TransactionFailureReason } : {}),
            ...(typeof entry.raw.railCode === 'string' ? { railCode: entry.raw.railCode } : {}),
            source: fileId,
          });
        }
        return 'outcome';
      }
    }
    // Anything else (a block rejected without its transactions, a bank fee, a whole file of no payment of ours) is an operator's.
    await this.context.exceptions.record(tx, { exceptionId, connectorId: this.config.id, fileId, kind: 'UNMATCHED_ENTRY', message: entry.message, detail: entry.raw });
    return 'exception';
  }

  /**
   * Money that arrived: credited once (by the bank's entry reference) to the production account its virtual account
   * number or reference code names, else an UNMATCHED_CREDIT exception carrying what an operator needs to assign it.
   */
  private async importCredit(tx: EntityManager, fileId: string, index: number, exceptionId: string, entry: Extract<InboundEntry, { type: 'CREDIT' }>): Promise<'outcome' | 'exception' | 'none'> {
    const bankReference = entry.bankReference ?? `${fileId}/${index}`;
    const credit = { connectorId: this.config.id, bankReference, amount: entry.amount, currency: entry.currency, paymentRail: this.config.kind === 'NACHA' ? 'ACH' : null, ...(entry.debtorName ? { debtorName: entry.debtorName } : {}), fileId };
    const account = entry.amount > 0 ? await this.context.credits.match(entry.currency, entry.texts, entry.accountNumbers) : null;
    if (account) {
      const { created } = await this.context.credits.credit(tx, credit, account, new Date().toISOString());
      return created ? 'outcome' : 'none';
    }
    await this.context.exceptions.record(tx, {
      exceptionId,
      connectorId: this.config.id,
      fileId,
      kind: 'UNMATCHED_CREDIT',
      message: `incoming credit of ${entry.amount} ${entry.currency} (reference ${entry.reference ?? 'none'}): no funding instruction matches it`,
      detail: { ...entry.raw, amount: entry.amount, currency: entry.currency, reference: entry.reference, bankReference, texts: entry.texts, accountNumbers: entry.accountNumbers, debtorName: entry.debtorName ?? null },
    });
    return 'exception';
  }

  private async importedBySha(sha256: string): Promise<RailFileRow | undefined> {
    const [row] = await queryRows<RailFileRow>(this.context.dataSource, `SELECT file_id, connector_id, direction, format, name, status, sha256, size_bytes, entry_count, total_amount, meta, imported_by, created_at, written_at FROM ${this.schema}.rail_files WHERE direction = 'INBOUND' AND sha256 = $1`, [sha256]);
    return row;
  }

  private resultOf(row: RailFileRow, duplicate: boolean): RailImportResult {
    return {
      fileId: row.file_id,
      connectorId: row.connector_id,
      format: row.format,
      name: row.name,
      sha256: row.sha256!,
      duplicate,
      entries: row.entry_count,
      outcomes: Number(row.meta.outcomes ?? 0),
      exceptions: Number(row.meta.exceptions ?? 0),
    };
  }
}

function groupBy(settlesAt: Record<string, string>): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const [paymentId, at] of Object.entries(settlesAt)) groups.set(at, [...(groups.get(at) ?? []), paymentId]);
  return groups;
}
