import type {
  StablecoinFundingInstructions,
  StablecoinIssuanceStatus,
  StablecoinOperationSource,
  StablecoinOperationType,
  StablecoinPayoutRail,
  StablecoinProviderAccountStatus,
  StablecoinProviderEnvironment,
} from '@payments/contracts';

/** A link's credentials, opened from their sealed form only for the call. */
export interface ProviderCredentials {
  /**
   * Whose credentials these are: the link id, or `<platformId>/<mode>` for a link being made. Adapters that cache
   * what the provider hands out (Brale's OAuth2 tokens) key it by this and a keyed hash of the secret, so nothing
   * obtained for one link or platform ever serves another (issue #27).
   */
  owner: string;
  environment: StablecoinProviderEnvironment;
  apiClientId: string;
  apiClientSecret: string;
}

/** What the provider says of credentials: usable or not, and the provider accounts they reach. */
export interface CredentialCheck {
  status: StablecoinProviderAccountStatus;
  providerAccountIds: string[];
}

/** The provider's metadata of a token it created. */
export interface ProviderToken {
  name: string;
  symbol: string;
  decimals: number;
  baseCurrency: string;
  issuanceStatus: StablecoinIssuanceStatus;
}

/** An operation as the provider is asked to run it (ids are ours; the provider dedupes on `operationId`). */
export interface ProviderOperationRequest {
  operationId: string;
  providerAccountId: string;
  operationType: StablecoinOperationType;
  /** Token units (digits). */
  amount: string;
  /** The fiat side in the base currency's smallest unit. */
  fiatAmount: number;
  fiatCurrency: string;
  /** The provider's id of the token (Brale: value_type). */
  valueType: string;
  source: StablecoinOperationSource;
  /** Mints: the Spark address receiving the tokens. */
  tokenDestinationAddress?: string;
  /** Burns: the bank account paid, as the provider needs it, and the rail. */
  payout?: { rail: StablecoinPayoutRail; accountInfo: Record<string, unknown> };
}

/** Where an operation stands at the provider. */
export type ProviderStage = 'PENDING_FUNDING' | 'PENDING_PROVIDER' | 'PROCESSING' | 'COMPLETED' | 'FAILED';

export interface ProviderReport {
  stage: ProviderStage;
  /** The provider's own status word (sanitized: no identifiers beyond the operation's). */
  providerStatus: string;
  failureReason?: string;
  /** When to ask again (real milliseconds); absent: the stage is final or only our funding arrival moves it. */
  nextCheckInMs?: number;
}

export interface ProviderSubmission extends ProviderReport {
  providerOperationId: string;
  fundingInstructions?: StablecoinFundingInstructions;
  /** Real milliseconds the provider waits for the funds of a PENDING_FUNDING operation. */
  fundingWindowMs?: number;
}

/** What an operation has recorded that the provider (or its sandbox simulation) reads back. */
export interface RecordedOperation {
  operationId: string;
  providerAccountId: string;
  providerOperationId: string;
  amount: string;
  /** The base currency side (smallest unit). */
  fiatAmount: number;
  /** The provider waits for funds the issuer sends (wire-funded mints, external-source burns). */
  fundingRequired: boolean;
  submittedAt: string;
  fundedAt?: string;
}

/**
 * The port every stablecoin provider adapter implements (docs/stablecoins.md): the simulated sandbox provider and the
 * Brale adapter. Calls throw ApiError: 400 STABLECOIN_PROVIDER_ACCOUNT_INVALID/_REVOKED when the provider refuses the
 * credentials, 503 SERVICE_UNAVAILABLE when it cannot be reached.
 */
export interface StablecoinProviderPort {
  /**
   * Verifies credentials; `initial` is the link's own check (later ones re-verify a stored link). The initial check
   * always asks the provider with the secret given (Brale: a real token exchange), never a cached answer.
   */
  verify(credentials: ProviderCredentials, initial: boolean): Promise<CredentialCheck>;
  token(credentials: ProviderCredentials, providerAccountId: string, valueType: string): Promise<ProviderToken>;
  /** Idempotent by `request.operationId`: a repeat answers the operation the provider already has. */
  submit(credentials: ProviderCredentials, request: ProviderOperationRequest): Promise<ProviderSubmission>;
  status(credentials: ProviderCredentials, operation: RecordedOperation): Promise<ProviderReport>;
}
