import type { DataSource, EntityManager } from 'typeorm';
import { v5 as uuidv5, v7 as uuidv7 } from 'uuid';
import { ApiError, CallerContext, InternalAccount, isInternalAccountId, ListInternalAccountsQuery, ListPlatformInternalAccountsQuery, Mode, Page } from '@payments/contracts';
import { CRYPTO_CURRENCY_CODES } from '@payments/money';
import { ClaimInTransaction, IdempotencyClaims } from '@payments/eventsourcing';
import { idempotencyScopeOf, keysetPage, SqlWhere } from '@payments/runtime';
import { LedgerService, systemAccountId } from '../ledger/ledger.service';
import { LedgerAccountRow, toInternalAccount } from './internal-account.view';
import { FundingReferences } from './funding-references';

const ACCOUNT_NAMESPACE = '8f5c2e1a-6b3d-4c7e-9a10-5d2f4b6c8e90';

/**
 * The currency of Embedded Wallet internal accounts ("Global Accounts"): a customer gets one when created on a
 * platform that has it among its supported currencies (mintlify/snippets/global-accounts/walkthrough.mdx).
 */
export const EMBEDDED_WALLET_CURRENCY = 'USDB';

/** One internal account per (owner, currency): the id is derived, so opening twice (a redelivered event) is a no-op. */
export function internalAccountId(platformId: string, mode: Mode, owner: string, currency: string): string {
  return `InternalAccount:${uuidv5(`${platformId}/${mode}/${owner}/${currency}`, ACCOUNT_NAMESPACE)}`;
}

/** Internal accounts of customers and of the platform: opened from identity events, read from `ledger_accounts`. */
export class InternalAccountService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly ledger: LedgerService,
    private readonly claims: IdempotencyClaims,
    readonly funding: FundingReferences = new FundingReferences(dataSource),
  ) {}

  /**
   * A customer's accounts: one per currency, and the Embedded Wallet when `embeddedWallet` (the platform supports
   * USDB). A customer's USDB account IS the Embedded Wallet (purpose EMBEDDED_WALLET), whichever of the two asked for
   * it: both derive the same id, so a customer never has two USDB accounts.
   */
  async openForCustomer(tx: EntityManager, platformId: string, mode: Mode, customerId: string, currencies: readonly string[], embeddedWallet: boolean, now: string): Promise<void> {
    for (const currency of currencies) {
      if (currency === EMBEDDED_WALLET_CURRENCY) continue;
      const accountId = internalAccountId(platformId, mode, customerId, currency);
      await this.ledger.open(tx, { accountId, platformId, mode, owner: 'CUSTOMER', customerId, currency, purpose: 'CUSTOMER' }, now);
    }
    if (embeddedWallet || currencies.includes(EMBEDDED_WALLET_CURRENCY)) await this.openEmbeddedWallet(tx, platformId, mode, customerId, now);
  }

  /** The customer's Embedded Wallet (type EMBEDDED_WALLET, USDB); opening it again is a no-op. */
  async openEmbeddedWallet(tx: EntityManager, platformId: string, mode: Mode, customerId: string, now: string): Promise<void> {
    const currency = EMBEDDED_WALLET_CURRENCY;
    const accountId = internalAccountId(platformId, mode, customerId, currency);
    await this.ledger.open(tx, { accountId, platformId, mode, owner: 'CUSTOMER', customerId, currency, purpose: 'EMBEDDED_WALLET' }, now);
  }

  async openForPlatform(tx: EntityManager, platformId: string, mode: Mode, currencies: readonly string[], now: string): Promise<void> {
    for (const currency of currencies) {
      const accountId = internalAccountId(platformId, mode, 'PLATFORM', currency);
      await this.ledger.open(tx, { accountId, platformId, mode, owner: 'PLATFORM', currency, purpose: 'PLATFORM' }, now);
    }
  }

  async listForCustomers(caller: CallerContext, query: ListInternalAccountsQuery): Promise<Page<InternalAccount>> {
    const where = this.scope(caller, 'CUSTOMER').add('customer_id = ?', query.customerId).add('currency = ?', query.currency);
    const filtered = query.type ? this.byType(where, query.type) : where;
    const page = await keysetPage<LedgerAccountRow, LedgerAccountRow>({
      db: this.dataSource,
      from: `FROM ledger_accounts WHERE ${filtered.sql}`,
      params: filtered.params,
      keyColumn: 'account_id',
      limit: query.limit,
      cursor: query.cursor,
      toItem: (row) => row,
      keyOf: (row) => row.account_id,
    });
    return { ...page, data: await this.views(page.data) };
  }

  /** The resources of `rows`, production ones with their funding references (allocated on first sight). */
  private async views(rows: LedgerAccountRow[]): Promise<InternalAccount[]> {
    const funding = await this.funding.of(rows);
    return rows.map((row) => toInternalAccount(row, funding.get(row.account_id)));
  }

  async listForPlatform(caller: CallerContext, query: ListPlatformInternalAccountsQuery): Promise<{ data: InternalAccount[] }> {
    const where = this.scope(caller, 'PLATFORM').add('currency = ?', query.currency);
    const filtered = query.type ? this.byType(where, query.type) : where;
    const rows: LedgerAccountRow[] = await this.dataSource.query(`SELECT * FROM ledger_accounts WHERE ${filtered.sql} ORDER BY currency`, filtered.params);
    return { data: await this.views(rows) };
  }

  /**
   * Sandbox only: credits the account from the sandbox funding system account, as one balanced entry. One entry per
   * Idempotency-Key, claimed in its transaction: a retry (also after a crash) answers the account as it is now.
   */
  fund(caller: CallerContext, accountId: string, amount: number, now: string): Promise<InternalAccount> {
    const entryId = `SandboxFunding:${uuidv7()}`;
    return this.claims.run(idempotencyScopeOf(caller), 'sandbox-fund', entryId, (claim) => this.credit(caller, accountId, amount, now, entryId, claim), async () => toInternalAccount(await this.find(caller, accountId)));
  }

  private async credit(caller: CallerContext, accountId: string, amount: number, now: string, entryId: string, claim: ClaimInTransaction): Promise<InternalAccount> {
    const row = await this.find(caller, accountId);
    const funding = systemAccountId(caller.platformId, caller.mode, 'SANDBOX_FUNDING', row.currency, entryId);
    await this.ledger.postEntry(
      caller.platformId,
      caller.mode,
      { entryId, reference: accountId, kind: 'SANDBOX_FUNDING', legs: [{ accountId, currency: row.currency, amount }, { accountId: funding, currency: row.currency, amount: -amount }] },
      now,
      { systemAccounts: [{ accountId: funding, currency: row.currency, amount: 0 }], claim },
    );
    return toInternalAccount(await this.find(caller, accountId));
  }

  private async find(caller: CallerContext, accountId: string): Promise<LedgerAccountRow> {
    const rows: LedgerAccountRow[] = isInternalAccountId(accountId)
      ? await this.dataSource.query(`SELECT * FROM ledger_accounts WHERE account_id = $1 AND platform_id = $2 AND mode = $3 AND owner <> 'SYSTEM'`, [accountId, caller.platformId, caller.mode])
      : [];
    if (!rows[0]) throw new ApiError('REFERENCE_NOT_FOUND', 'internal account not found');
    return rows[0];
  }

  private scope(caller: CallerContext, owner: 'CUSTOMER' | 'PLATFORM'): SqlWhere {
    return new SqlWhere().add('platform_id = ?', caller.platformId).add('mode = ?', caller.mode).add('owner = ?', owner);
  }

  /** The type is derived from purpose and currency; filter the same way. */
  private byType(where: SqlWhere, type: string): SqlWhere {
    if (type === 'EMBEDDED_WALLET') return where.add(`purpose = 'EMBEDDED_WALLET'`);
    const crypto = [...CRYPTO_CURRENCY_CODES];
    where.add(`purpose <> 'EMBEDDED_WALLET'`);
    return type === 'INTERNAL_CRYPTO' ? where.add('currency = ANY(?)', crypto) : where.add('NOT (currency = ANY(?))', crypto);
  }
}

