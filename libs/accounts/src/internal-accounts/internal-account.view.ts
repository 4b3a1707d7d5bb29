import type { InternalAccount, InternalAccountType, Mode } from '@payments/contracts';
import { currencyObject, findCurrency } from '@payments/money';
import { fundingInstructions } from './funding-instructions';
import type { FundingReference } from './funding-references';

export interface LedgerAccountRow {
  account_id: string;
  platform_id?: string;
  mode: Mode;
  owner: 'CUSTOMER' | 'PLATFORM' | 'SYSTEM';
  customer_id: string | null;
  currency: string;
  purpose: string;
  total: string;
  held: string;
  /** Embedded Wallets only (InternalAccountSettings stream); false on every other account. */
  private_enabled: boolean;
  created_at: Date;
  updated_at: Date;
}

export function accountType(row: Pick<LedgerAccountRow, 'purpose' | 'currency'>): InternalAccountType {
  if (row.purpose === 'EMBEDDED_WALLET') return 'EMBEDDED_WALLET';
  return findCurrency(row.currency)?.kind === 'CRYPTO' ? 'INTERNAL_CRYPTO' : 'INTERNAL_FIAT';
}

/**
 * The InternalAccount resource from its ledger row: `balance` is available (total minus holds); `privateEnabled` only
 * on an Embedded Wallet, as the published InternalAccount has it. `funding`: a production account's allocated
 * reference (FundingReferences.of), without which it lists no funding instructions.
 */
export function toInternalAccount(row: LedgerAccountRow, funding?: FundingReference): InternalAccount {
  const currency = currencyObject(row.currency);
  const total = Number(row.total);
  const type = accountType(row);
  return {
    id: row.account_id,
    ...(row.customer_id ? { customerId: row.customer_id } : {}),
    type,
    status: 'ACTIVE',
    balance: { amount: total - Number(row.held), currency },
    totalBalance: { amount: total, currency },
    fundingPaymentInstructions: fundingInstructions(row.account_id, row.currency, row.mode, row.owner === 'PLATFORM', funding),
    ...(type === 'EMBEDDED_WALLET' ? { privateEnabled: row.private_enabled === true } : {}),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
