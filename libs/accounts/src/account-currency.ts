import type { DataSource } from 'typeorm';
import { AccountCurrency, ApiError, ExternalAccount, isExternalAccountId, isInternalAccountId, Mode } from '@payments/contracts';
import { queryPrepared } from '@payments/eventsourcing';
import { accountType } from './internal-accounts/internal-account.view';
import { presentStored } from './external-accounts/external-account.view';

type InternalRow = { currency: string; owner: 'CUSTOMER' | 'PLATFORM'; customer_id: string | null; purpose: string };

function internalAccountCurrency(accountId: string, row: InternalRow): AccountCurrency {
  const customer = row.customer_id ? { customerId: row.customer_id } : {};
  return { accountId, kind: 'INTERNAL', internalType: accountType(row), currency: row.currency, owner: row.owner, ...customer, status: 'ACTIVE' };
}

/** An external account's body as the AccountCurrency answer (its currency, owner and verification status). */
export function externalAccountCurrency(account: ExternalAccount): AccountCurrency {
  const customer = account.customerId ? { customerId: account.customerId } : {};
  return { accountId: account.id, kind: 'EXTERNAL', currency: account.currency, owner: account.customerId ? 'CUSTOMER' : 'PLATFORM', ...customer, status: account.status };
}

/**
 * For quoting and wallet-auth (AccountsRpc.getAccountCurrency): the currency, owner and status of one internal or external account
 * of the caller's platform and mode. Another tenant's account, a system account or a deleted one is a 404.
 */
export async function accountCurrency(db: DataSource, scope: { platformId: string; mode: Mode }, accountId: string): Promise<AccountCurrency> {
  const found = (await lookUpAccounts(db, scope, [accountId])).get(accountId);
  if (!found) throw new ApiError('REFERENCE_NOT_FOUND', 'account not found');
  return found.currency;
}

/** One account of `lookUpAccounts`: its AccountCurrency answer, and an external account's body. */
export interface LookedUpAccount {
  currency: AccountCurrency;
  external?: ExternalAccount;
}

/**
 * Several accounts of the caller's platform and mode in one statement (a transfer's two, issue #30), answered as
 * `accountCurrency` would (an external one from its body, which also answers a payee). Absent, foreign, system and
 * deleted accounts are missing from the map.
 */
export async function lookUpAccounts(db: DataSource, scope: { platformId: string; mode: Mode }, accountIds: readonly string[]): Promise<Map<string, LookedUpAccount>> {
  const kinds = accountIds.map((id) => (isInternalAccountId(id) ? 'INTERNAL' : isExternalAccountId(id) ? 'EXTERNAL' : null));
  const rows = await queryPrepared<{ id: string } & Partial<InternalRow> & { body: ExternalAccount | null }>(
    db,
    `SELECT i.id, l.currency, l.owner, l.customer_id, l.purpose, e.body
       FROM unnest($1::text[], $2::text[]) AS i(id, kind)
       LEFT JOIN ledger_accounts l ON i.kind = 'INTERNAL' AND l.account_id = i.id AND l.platform_id = $3 AND l.mode = $4 AND l.owner <> 'SYSTEM'
       LEFT JOIN external_accounts e ON i.kind = 'EXTERNAL' AND e.external_account_id = i.id AND e.platform_id = $3 AND e.mode = $4 AND e.deleted_at IS NULL`,
    [accountIds, kinds, scope.platformId, scope.mode],
  );
  const found = new Map<string, LookedUpAccount>();
  for (const row of rows) {
    if (row.body) {
      const external = presentStored(row.body);
      found.set(row.id, { currency: externalAccountCurrency(external), external });
    } else if (row.currency) found.set(row.id, { currency: internalAccountCurrency(row.id, row as InternalRow) });
  }
  return found;
}
