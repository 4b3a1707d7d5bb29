import type { DataSource } from 'typeorm';
import { AccountCurrency, ApiError, ExternalAccount, isExternalAccountId, isInternalAccountId, Mode } from '@payments/contracts';
import { queryRows } from '@payments/eventsourcing';
import { accountType } from './internal-accounts/internal-account.view';

/**
 * For quoting and wallet-auth (AccountsRpc.getAccountCurrency): the currency, owner and status of one internal or external account
 * of the caller's platform and mode. Another tenant's account, a system account or a deleted one is a 404.
 */
/** An external account's body as the AccountCurrency answer (its currency, owner and verification status). */
export function externalAccountCurrency(account: ExternalAccount): AccountCurrency {
  const customer = account.customerId ? { customerId: account.customerId } : {};
  return { accountId: account.id, kind: 'EXTERNAL', currency: account.currency, owner: account.customerId ? 'CUSTOMER' : 'PLATFORM', ...customer, status: account.status };
}

export async function accountCurrency(db: DataSource, scope: { platformId: string; mode: Mode }, accountId: string): Promise<AccountCurrency> {
  if (isInternalAccountId(accountId)) {
    const [row] = await queryRows<{ currency: string; owner: 'CUSTOMER' | 'PLATFORM'; customer_id: string | null; purpose: string }>(
      db,
      `SELECT currency, owner, customer_id, purpose FROM ledger_accounts WHERE account_id = $1 AND platform_id = $2 AND mode = $3 AND owner <> 'SYSTEM'`,
      [accountId, scope.platformId, scope.mode],
    );
    if (row) {
      const customer = row.customer_id ? { customerId: row.customer_id } : {};
      return { accountId, kind: 'INTERNAL', internalType: accountType(row), currency: row.currency, owner: row.owner, ...customer, status: 'ACTIVE' };
    }
  } else if (isExternalAccountId(accountId)) {
    const [row] = await queryRows<{ currency: string; customer_id: string | null; status: string }>(
      db,
      `SELECT currency, customer_id, status FROM external_accounts WHERE external_account_id = $1 AND platform_id = $2 AND mode = $3 AND deleted_at IS NULL`,
      [accountId, scope.platformId, scope.mode],
    );
    if (row) return { accountId, kind: 'EXTERNAL', currency: row.currency, owner: row.customer_id ? 'CUSTOMER' : 'PLATFORM', ...(row.customer_id ? { customerId: row.customer_id } : {}), status: row.status };
  }
  throw new ApiError('REFERENCE_NOT_FOUND', 'account not found');
}
