/** Stablecoins (seed: Stablecoins; interop §6.10): provider account links, registered stablecoins, mint and burn operations. */

/** The one provider of the published API. */
export const STABLECOIN_PROVIDERS = ['BRALE'] as const;
export type StablecoinProvider = (typeof STABLECOIN_PROVIDERS)[number];
/** Derived from the platform's mode: sandbox credentials talk to the provider's sandbox. */
export type StablecoinProviderEnvironment = 'SANDBOX' | 'PRODUCTION';
export const STABLECOIN_PROVIDER_ACCOUNT_STATUSES = ['ACTIVE', 'INVALID', 'REVOKED'] as const;
export type StablecoinProviderAccountStatus = (typeof STABLECOIN_PROVIDER_ACCOUNT_STATUSES)[number];
export const STABLECOIN_NETWORKS = ['SPARK'] as const;
export type StablecoinNetwork = (typeof STABLECOIN_NETWORKS)[number];
export const STABLECOIN_ISSUANCE_STATUSES = ['PENDING_REVIEW', 'PROVISIONING', 'PROVISIONED', 'REJECTED', 'FAILED'] as const;
export type StablecoinIssuanceStatus = (typeof STABLECOIN_ISSUANCE_STATUSES)[number];
export const STABLECOIN_GRID_OPERATIONS_STATUSES = ['NOT_ENABLED', 'PENDING_APPROVAL', 'ENABLING', 'ENABLED', 'DISABLED'] as const;
export type StablecoinGridOperationsStatus = (typeof STABLECOIN_GRID_OPERATIONS_STATUSES)[number];
export const STABLECOIN_OPERATION_TYPES = ['MINT', 'BURN'] as const;
export type StablecoinOperationType = (typeof STABLECOIN_OPERATION_TYPES)[number];
export const STABLECOIN_OPERATION_STATUSES = ['CREATED', 'PENDING_FUNDING', 'PENDING_PROVIDER', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED'] as const;
export type StablecoinOperationStatus = (typeof STABLECOIN_OPERATION_STATUSES)[number];
/** Terminal: nothing changes an operation after these. */
export const STABLECOIN_OPERATION_FINAL_STATUSES: readonly StablecoinOperationStatus[] = ['COMPLETED', 'FAILED', 'EXPIRED'];
export const STABLECOIN_MINT_FUNDING_TYPES = ['WIRE', 'ACH_DEBIT', 'SAME_DAY_ACH_DEBIT', 'GRID_INTERNAL_ACCOUNT', 'PROVIDER_INTERNAL_BALANCE'] as const;
export type StablecoinMintFundingType = (typeof STABLECOIN_MINT_FUNDING_TYPES)[number];
export const STABLECOIN_BURN_SOURCE_TYPES = ['EXTERNAL_ACCOUNT', 'GRID_INTERNAL_ACCOUNT', 'PROVIDER_INTERNAL_BALANCE'] as const;
export type StablecoinBurnSourceType = (typeof STABLECOIN_BURN_SOURCE_TYPES)[number];
export const STABLECOIN_PAYOUT_RAILS = ['WIRE', 'ACH_CREDIT', 'SAME_DAY_ACH_CREDIT', 'RTP_CREDIT'] as const;
export type StablecoinPayoutRail = (typeof STABLECOIN_PAYOUT_RAILS)[number];

/** A provider account link: the platform's provider credentials, verified with the provider; the secret is never returned. */
export interface StablecoinProviderAccount {
  /** @pattern ^StablecoinProviderAccount: */
  id: string;
  provider: StablecoinProvider;
  providerAccountId: string;
  providerEnvironment: StablecoinProviderEnvironment;
  status: StablecoinProviderAccountStatus;
  /**
   * Last successful verification of the credentials with the provider.
   * @format date-time
   */
  lastVerifiedAt?: string;
  /** @format date-time */
  createdAt: string;
  /** @format date-time */
  updatedAt: string;
}

/** A provider-created stablecoin registered with this platform (registration links metadata; it creates no token). */
export interface Stablecoin {
  /** @pattern ^Stablecoin: */
  id: string;
  name: string;
  symbol: string;
  /** The fiat currency the token is denominated against. */
  baseCurrency: string;
  network: StablecoinNetwork;
  /** @asType integer */
  decimals: number;
  issuanceStatus: StablecoinIssuanceStatus;
  gridOperationsStatus: StablecoinGridOperationsStatus;
  /** The token identifier in the network's namespace (Spark: a bech32m `btkn…` identifier). */
  networkTokenIdentifier: string;
  /** Present once the stablecoin is enabled for Grid operations. */
  currency?: string;
  provider: StablecoinProvider;
  stablecoinProviderAccountId: string;
  providerEnvironment: StablecoinProviderEnvironment;
  /** The provider's identifier of the token (Brale: `value_type`). */
  providerTokenIdentifier: string;
  /** @format date-time */
  createdAt: string;
  /** @format date-time */
  updatedAt: string;
}

/** Where an operation's value comes from: a mint's funding source or a burn's source, in one merged shape. */
export interface StablecoinOperationSource {
  type: StablecoinMintFundingType | StablecoinBurnSourceType;
  externalAccountId?: string;
  accountId?: string;
  sourceTokenIdentifier?: string;
  cryptoNetwork?: string;
}

/** Where an operation's value goes: a mint's token destination, or a burn's fiat payout account and rail. */
export interface StablecoinOperationDestination {
  accountId: string;
  rail?: StablecoinPayoutRail;
}

/** What the issuer sends, and where, for an operation that waits for funds (wire-funded mints, external-source burns). */
export interface StablecoinFundingInstructions {
  rail?: string;
  network?: string;
  address?: string;
  valueType?: string;
  /** Provider-specific fields (wire: bank, account and routing numbers, beneficiary, the reference to quote). */
  [field: string]: unknown;
}

/** Guidance (not a promise) of when and how much fiat a burn pays out. */
export interface StablecoinEstimatedDelivery {
  rail?: string;
  /** @pattern ^[0-9]+$ */
  amount?: string;
  currency?: string;
  timing?: string;
  [field: string]: unknown;
}

/** A mint or burn operation, as GET /stablecoin-operations/{id} answers it and its webhooks carry it. */
export interface StablecoinOperation {
  /** @pattern ^StablecoinOperation: */
  id: string;
  stablecoinId: string;
  operationType: StablecoinOperationType;
  status: StablecoinOperationStatus;
  /**
   * In the token's smallest unit, as a string of digits (token amounts outgrow a JSON number).
   * @pattern ^[0-9]+$
   */
  amount: string;
  provider: StablecoinProvider;
  providerEnvironment: StablecoinProviderEnvironment;
  stablecoinProviderAccountId: string;
  source?: StablecoinOperationSource;
  fundingInstructions?: StablecoinFundingInstructions;
  destination?: StablecoinOperationDestination;
  estimatedDelivery?: StablecoinEstimatedDelivery;
  /**
   * When an operation still waiting for its funds expires.
   * @format date-time
   */
  expiresAt?: string;
  /** The provider's status, sanitized. */
  providerStatus?: string;
  /** Why a FAILED operation failed (e.g. PROVIDER_TRANSFER_FAILED, INSUFFICIENT_FUNDS). */
  failureReason?: string;
  description?: string;
  /** @format date-time */
  createdAt: string;
  /** @format date-time */
  updatedAt: string;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
export const isStablecoinProviderAccountId = (value: string): boolean => new RegExp(`^StablecoinProviderAccount:${UUID}$`).test(value);
export const isStablecoinId = (value: string): boolean => new RegExp(`^Stablecoin:${UUID}$`).test(value);
export const isStablecoinOperationId = (value: string): boolean => new RegExp(`^StablecoinOperation:${UUID}$`).test(value);
