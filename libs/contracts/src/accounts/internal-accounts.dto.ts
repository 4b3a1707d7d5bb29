import { IsIn, IsInt, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { OptionalNotNull } from '../optional-not-null';
import { PageQuery } from '../pagination/pagination';

export const INTERNAL_ACCOUNT_TYPES = ['INTERNAL_FIAT', 'INTERNAL_CRYPTO', 'EMBEDDED_WALLET'] as const;
export type InternalAccountType = (typeof INTERNAL_ACCOUNT_TYPES)[number];
export const INTERNAL_ACCOUNT_STATUSES = ['PENDING', 'ACTIVE', 'CLOSED', 'FROZEN', 'FAILED'] as const;

/** GET /customers/internal-accounts. */
export class ListInternalAccountsQuery extends PageQuery {
  @OptionalNotNull() @IsString() @Matches(/^[A-Z]{3,5}$/) currency?: string;
  @OptionalNotNull() @IsString() @MaxLength(64) customerId?: string;
  @OptionalNotNull() @IsIn(INTERNAL_ACCOUNT_TYPES) type?: InternalAccountType;
}

/** GET /platform/internal-accounts: not paginated. */
export class ListPlatformInternalAccountsQuery {
  @OptionalNotNull() @IsString() @Matches(/^[A-Z]{3,5}$/) currency?: string;
  @OptionalNotNull() @IsIn(INTERNAL_ACCOUNT_TYPES) type?: InternalAccountType;
}

/** POST /sandbox/internal-accounts/{accountId}/fund. */
export class FundInternalAccountRequest {
  @IsInt() @Min(1) @Max(100_000_000_000) amount!: number;
}

export interface CurrencyAmount {
  amount: number;
  currency: { code: string; name: string; symbol: string; decimals: number };
}

export interface InternalAccount {
  id: string;
  customerId?: string;
  type: InternalAccountType;
  status: (typeof INTERNAL_ACCOUNT_STATUSES)[number];
  /** Available: total minus held funds. */
  balance: CurrencyAmount;
  totalBalance: CurrencyAmount;
  fundingPaymentInstructions: unknown[];
  createdAt: string;
  updatedAt: string;
}

export const isInternalAccountId = (value: string): boolean => /^InternalAccount:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value);
