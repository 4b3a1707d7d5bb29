import { AccountVerificationMethod, DEFAULT_ACCOUNT_VERIFICATION_METHOD, isAccountVerificationMethod } from '@payments/contracts';
import { queryRows, SqlExecutor } from '@payments/eventsourcing';
import { ACCOUNT_TYPE_TABLE } from '../rules';

/** Every currency an external account may carry (the account-type table's): those a method can be set for. */
export const EXTERNAL_ACCOUNT_CURRENCIES: readonly string[] = [...new Set(ACCOUNT_TYPE_TABLE.flatMap((row) => row.currencies))].sort();

/** The method a new production account in `currency` gets: the configured one, else the default (OPERATOR_APPROVAL). */
export async function verificationMethodFor(db: SqlExecutor, currency: string): Promise<AccountVerificationMethod> {
  const rows = await queryRows<{ method: string }>(db, `SELECT method FROM account_verification_methods WHERE currency = $1`, [currency]);
  const method = rows[0]?.method;
  return isAccountVerificationMethod(method) ? method : DEFAULT_ACCOUNT_VERIFICATION_METHOD;
}
