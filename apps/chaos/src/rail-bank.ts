import type { Sql } from './sql';
import { DirectoryFileStore, sha256Of } from '@payments/rails';
import { nachaReturnFile } from '@payments/rails/testing';
import { sleep } from './platform-process';
import { ACH_ODFI, advanceCalendar, PRODUCTION_BENEFICIARY, RailDirectories } from './production';

/** What the bank does with a payout, decided by the plan (the seed), found by the payout's unique amount. */
export interface PlannedReturn {
  /** R01 before the calendar settles the file (the return and the settlement race), or once the payout settled. */
  when: 'before' | 'after';
  /** The same return file dropped a second time under another name: a re-import. */
  reimport: boolean;
}

interface FiledPayment {
  file_id: string;
  payment_id: string;
  rail_reference: string;
  amount: string;
  status: string;
}

/**
 * The bank on the other side of the NACHA connector, in the chaos runner (it lives through the platform's kills):
 * it picks up every written outbox file, returns the payouts the plan says (an R01 return file in the inbox, written
 * atomically, sometimes twice under two names), and lets the ACH calendar run (the file's settlement timers due now).
 */
export class RailBank {
  returnsWritten = 0;
  reimportsWritten = 0;
  filesSettled = 0;
  /** Returned payments by id, and the return files' contents by name (for the checks). */
  readonly returned = new Set<string>();
  readonly returnFiles = new Map<string, string>();
  private readonly settledFiles = new Set<string>();
  private readonly reimports: { name: string; content: string }[] = [];
  private readonly inbox: DirectoryFileStore;
  private loop?: Promise<void>;
  private stopped = false;
  private lastError?: unknown;

  constructor(
    private readonly db: Sql,
    dirs: RailDirectories,
    private readonly plan: ReadonlyMap<number, PlannedReturn>,
    private readonly accountNumber: string,
  ) {
    this.inbox = new DirectoryFileStore(dirs.inbox);
  }

  start(): void {
    this.loop ??= (async () => {
      while (!this.stopped) {
        // A query can fail while the shared server is busy: the next round tries again; the checks see what is left.
        await this.round().catch((error: unknown) => (this.lastError = error));
        await sleep(250);
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
  }

  /** What the bank still means to do (the run is not quiescent before it is done). */
  async pending(): Promise<string[]> {
    const { rows } = await this.db.query<FiledPayment>(
      `SELECT p.file_id, p.payment_id, p.rail_reference, p.amount::text, p.status FROM payments.rail_payments p WHERE p.kind = 'CREDIT' AND p.status IN ('SUBMITTED', 'FILED', 'SETTLED')`,
    );
    const returns = rows.filter((p) => this.plan.has(Number(p.amount)) && !this.returned.has(p.payment_id)).length;
    const busy: string[] = [];
    if (returns > 0) busy.push(`bank: ${returns} returns to send`);
    if (this.reimports.length > 0) busy.push(`bank: ${this.reimports.length} return files to send again`);
    const inbox = await this.inbox.list();
    const { rows: imported } = await this.db.query<{ sha256: string }>(`SELECT sha256 FROM payments.rail_files WHERE direction = 'INBOUND'`);
    const known = new Set(imported.map((r) => r.sha256));
    let waiting = 0;
    for (const f of inbox) if (!known.has(sha256Of(await this.inbox.read(f.name)))) waiting++;
    if (waiting > 0) busy.push(`bank: ${waiting} inbox files not imported`);
    if (busy.length > 0 && this.lastError) busy.push(`bank: last error ${this.lastError instanceof Error ? this.lastError.message : String(this.lastError)}`);
    return busy;
  }

  /** Counters that move when the bank acts (the quiescence fingerprint). */
  fingerprint(): string {
    return `${this.returnsWritten}/${this.reimportsWritten}/${this.filesSettled}`;
  }

  private async round(): Promise<void> {
    // Re-imports go a round after the first copy: the first is likely imported by then, the second must change nothing.
    for (const again of this.reimports.splice(0)) {
      await this.inbox.write(again.name, again.content);
      this.reimportsWritten++;
    }
    const { rows } = await this.db.query<FiledPayment & { kind: string }>(
      `SELECT p.file_id, p.payment_id, p.rail_reference, p.amount::text, p.status, p.kind
         FROM payments.rail_payments p JOIN payments.rail_files f ON f.file_id = p.file_id
        WHERE f.direction = 'OUTBOUND' AND f.status = 'WRITTEN'`,
    );
    const planOf = (p: FiledPayment & { kind: string }) => (p.kind === 'CREDIT' ? this.plan.get(Number(p.amount)) : undefined);
    for (const p of rows) {
      const planned = planOf(p);
      if (!planned || this.returned.has(p.payment_id)) continue;
      if (planned.when === 'before' ? p.status === 'FILED' : p.status === 'SETTLED') await this.sendReturn(p, planned.reimport);
    }
    // The calendar runs for a written file once the returns meant to come before it were recorded.
    for (const fileId of new Set(rows.map((p) => p.file_id))) {
      if (this.settledFiles.has(fileId)) continue;
      if (rows.some((p) => p.file_id === fileId && planOf(p)?.when === 'before' && p.status === 'FILED')) continue;
      await advanceCalendar(this.db, fileId);
      this.settledFiles.add(fileId);
      this.filesSettled++;
    }
  }

  private async sendReturn(p: FiledPayment, reimport: boolean): Promise<void> {
    const content = nachaReturnFile([{ originalTrace: p.rail_reference, code: 'R01', amount: Number(p.amount), routingNumber: '021000021', accountNumber: this.accountNumber, name: PRODUCTION_BENEFICIARY }], ACH_ODFI);
    const name = `return-${p.rail_reference}.ach`;
    await this.inbox.write(name, content);
    this.returnFiles.set(name, content);
    this.returned.add(p.payment_id);
    this.returnsWritten++;
    if (reimport) this.reimports.push({ name: `return-${p.rail_reference}-again.ach`, content });
  }
}
