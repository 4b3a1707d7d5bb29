import type { DomainEvent } from '@payments/eventsourcing';
import type {
  Catalogued,
  Mode,
  PAYMENTS_EVENTS,
  StablecoinEstimatedDelivery,
  StablecoinFundingInstructions,
  StablecoinOperationDestination,
  StablecoinOperationSource,
  StablecoinOperationType,
  StablecoinOperationUpdatedData,
  StablecoinProvider,
  StablecoinProviderEnvironment,
} from '@payments/contracts';
import type { LinkEvent } from '../links/link.decider';
import type { StablecoinEvent } from '../registry/stablecoin.decider';

/** What a mint or burn fixes when it is requested. */
export interface OperationTerms {
  operationId: string;
  platformId: string;
  mode: Mode;
  stablecoinId: string;
  operationType: StablecoinOperationType;
  /** Token units, digits. */
  amount: string;
  /** Its value in the base currency's smallest unit (whole cents: the request is refused otherwise). */
  fiatAmount: number;
  fiatCurrency: string;
  provider: StablecoinProvider;
  providerEnvironment: StablecoinProviderEnvironment;
  stablecoinProviderAccountId: string;
  providerAccountId: string;
  providerTokenIdentifier: string;
  source: StablecoinOperationSource;
  destination: StablecoinOperationDestination;
  /** Mints: the Spark address of the destination wallet. */
  tokenDestinationAddress?: string;
  /** Burns: the paid bank account's details as the provider needs them. */
  payoutAccountInfo?: Record<string, unknown>;
  estimatedDelivery?: StablecoinEstimatedDelivery;
  description?: string;
  /** The provider waits for the issuer's funds (wire-funded mints, external-source burns). */
  fundingRequired: boolean;
  /** GRID_INTERNAL_ACCOUNT funding: the internal account held now and debited when the mint completes. */
  heldAccountId?: string;
  createdAt: string;
}

export interface SubmittedData {
  providerOperationId: string;
  status: 'PENDING_FUNDING' | 'PENDING_PROVIDER';
  providerStatus: string;
  fundingInstructions?: StablecoinFundingInstructions;
  expiresAt?: string;
  at: string;
}

export interface ProviderStepData {
  providerStatus: string;
  at: string;
}

export interface FailedData extends ProviderStepData {
  failureReason: string;
}

export type StablecoinOperationCreated = DomainEvent<'StablecoinOperationCreated.v1', OperationTerms>;
export type StablecoinOperationSubmitted = DomainEvent<'StablecoinOperationSubmitted.v1', SubmittedData>;
export type StablecoinOperationFunded = DomainEvent<'StablecoinOperationFunded.v1', ProviderStepData>;
export type StablecoinOperationProcessing = DomainEvent<'StablecoinOperationProcessing.v1', ProviderStepData>;
/** `ledgerEntryId`: the balanced entry of the fiat leg, posted before this event is recorded. */
export type StablecoinOperationCompleted = DomainEvent<'StablecoinOperationCompleted.v1', ProviderStepData & { ledgerEntryId: string }>;
export type StablecoinOperationFailed = DomainEvent<'StablecoinOperationFailed.v1', FailedData>;
export type StablecoinOperationExpired = DomainEvent<'StablecoinOperationExpired.v1', { at: string }>;
export type StablecoinOperationUpdated = DomainEvent<'StablecoinOperationUpdated.v1', StablecoinOperationUpdatedData>;

export type OperationEvent =
  | StablecoinOperationCreated
  | StablecoinOperationSubmitted
  | StablecoinOperationFunded
  | StablecoinOperationProcessing
  | StablecoinOperationCompleted
  | StablecoinOperationFailed
  | StablecoinOperationExpired
  | StablecoinOperationUpdated;

/** Every stablecoin event the payments service writes is declared in its catalogue (checked by the compiler). */
const _declared: Catalogued<typeof PAYMENTS_EVENTS, OperationEvent | LinkEvent | StablecoinEvent> = true;
