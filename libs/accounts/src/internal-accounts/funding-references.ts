import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { depositAccountFor, FundingAccountMatch, MatchFundingRequest } from '@payments/contracts';
import type { LedgerAccountRow } from './internal-account.view';
import { fundingReferencesIn, nextVirtualAccountNumber } from './funding-match';

/** What an account's production funding instructions carry: its reference code and, with a range, its number. */
export interface FundingReference {
  reference: string;
  virtualAccountNumber: string | null;
}

interface FundingReferenceRow {
  account_id: string;
  reference: string;
  virtual_account_number: string | null;
}

/** Serialises allocations across replicas: one account's allocation is rare, and each is a few statements. */
const ALLOCATION_LOCK = 'accounts.funding_references';

/**
 * The `funding_references` table: a production account's reference code (random, `PP` + 10 hexadecimal digits,
 * checked unique) and its virtual account number, allocated the first time the account is shown (no one can send to
 * an account before seeing its instructions) and never changed. Allocations take one advisory lock, so two replicas
 * showing two accounts at once never pick the same number; the unique constraints stand behind it.
 */
export class FundingReferences {
  constructor(private readonly dataSource: DataSource) {}

  /** Accounts that list production funding instructions: customer and platform accounts in a configured currency. */
  static eligible(row: LedgerAccountRow): boolean {
    return row.mode === 'PRODUCTION' && row.owner !== 'SYSTEM' && row.purpose !== 'EMBEDDED_WALLET' && depositAccountFor(row.currency) !== undefined;
  }

  /** The references of `rows` (the eligible ones), allocating those not allocated yet. */
  async of(rows: readonly LedgerAccountRow[]): Promise<Map<string, FundingReference>> {
    const wanted = rows.filter(FundingReferences.eligible);
    if (wanted.length === 0) return new Map();
    const found = await this.read(wanted.map((r) => r.account_id));
    for (const row of wanted) {
      const known = found.get(row.account_id);
      // A range configured after the account's reference was allocated: the number is added then.
      const wantsNumber = depositAccountFor(row.currency)?.virtualAccounts !== undefined && !known?.virtualAccountNumber;
      if (!known || wantsNumber) found.set(row.account_id, await this.allocate(row));
    }
    return found;
  }

  /** The account an incoming credit is for: by virtual account number, else by a reference code in its texts. */
  async match(request: MatchFundingRequest): Promise<FundingAccountMatch | null> {
    if (request.internalAccountId !== undefined) return this.named(request.internalAccountId, request.currency);
    const byNumber = request.accountNumbers.filter((n) => /^\d{4,17}$/.test(n));
    const references = request.texts.flatMap(fundingReferencesIn);
    if (byNumber.length === 0 && references.length === 0) return null;
    const rows: { account_id: string; platform_id: string; mode: 'SANDBOX' | 'PRODUCTION'; customer_id: string | null; currency: string; by_number: boolean }[] = await this.dataSource.query(
      `SELECT l.account_id, l.platform_id, l.mode, l.customer_id, l.currency, (f.virtual_account_number = ANY($3::text[])) AS by_number
         FROM funding_references f JOIN ledger_accounts l ON l.account_id = f.account_id
        WHERE f.currency = $1 AND l.mode = 'PRODUCTION' AND (f.reference = ANY($2::text[]) OR f.virtual_account_number = ANY($3::text[]))
        ORDER BY by_number DESC`,
      [request.currency, references, byNumber],
    );
    // Two different accounts named (a number of one, the reference of another): not ours to choose, an operator decides.
    if (new Set(rows.map((r) => r.account_id)).size !== 1) return null;
    const r = rows[0];
    return { accountId: r.account_id, platformId: r.platform_id, mode: r.mode, customerId: r.customer_id, currency: r.currency, matchedBy: r.by_number ? 'VIRTUAL_ACCOUNT_NUMBER' : 'REFERENCE' };
  }

  /** An operator's choice: a production customer or platform account (not a system one, not a wallet) in the currency. */
  private async named(accountId: string, currency: string): Promise<FundingAccountMatch | null> {
    const [r]: LedgerAccountRow[] = await this.dataSource.query(
      `SELECT * FROM ledger_accounts WHERE account_id = $1 AND mode = 'PRODUCTION' AND owner <> 'SYSTEM' AND purpose <> 'EMBEDDED_WALLET' AND currency = $2`,
      [accountId, currency],
    );
    return r ? { accountId: r.account_id, platformId: r.platform_id!, mode: r.mode, customerId: r.customer_id, currency: r.currency, matchedBy: 'OPERATOR' } : null;
  }

  private async read(accountIds: string[]): Promise<Map<string, FundingReference>> {
    const rows: FundingReferenceRow[] = await this.dataSource.query(`SELECT account_id, reference, virtual_account_number FROM funding_references WHERE account_id = ANY($1::text[])`, [accountIds]);
    return new Map(rows.map((r) => [r.account_id, { reference: r.reference, virtualAccountNumber: r.virtual_account_number }]));
  }

  private allocate(row: LedgerAccountRow): Promise<FundingReference> {
    const range = depositAccountFor(row.currency)?.virtualAccounts;
    return this.dataSource.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [ALLOCATION_LOCK]);
      const [existing]: FundingReferenceRow[] = await tx.query(`SELECT account_id, reference, virtual_account_number FROM funding_references WHERE account_id = $1`, [row.account_id]);
      let reference = existing?.reference;
      while (!reference) {
        const candidate = `PP${randomBytes(5).toString('hex').toUpperCase()}`;
        const [taken] = await tx.query(`SELECT 1 FROM funding_references WHERE reference = $1`, [candidate]);
        if (!taken) reference = candidate;
      }
      let number = existing?.virtual_account_number ?? null;
      if (range && !number) {
        const [last]: { n: string | null }[] = await tx.query(
          `SELECT max(virtual_account_number) AS n FROM funding_references WHERE currency = $1 AND length(virtual_account_number) = $2 AND virtual_account_number BETWEEN $3 AND $4`,
          [row.currency, range.from.length, range.from, range.to],
        );
        // An exhausted range leaves the account without a number (its instructions fall back to the FBO account's).
        number = nextVirtualAccountNumber(range, last?.n ?? null);
      }
      await tx.query(
        `INSERT INTO funding_references (account_id, platform_id, currency, reference, virtual_account_number) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (account_id) DO UPDATE SET virtual_account_number = EXCLUDED.virtual_account_number WHERE funding_references.virtual_account_number IS NULL`,
        [row.account_id, row.platform_id ?? '', row.currency, reference, number],
      );
      return { reference, virtualAccountNumber: number };
    });
  }
}
