import type { CustomerImportRowError } from '../bulk-import.dto';
import type { EmbeddedWalletConfig, FeeConfig, PlatformCurrencyConfig } from '../config/platform-config.dto';
import type { CustomerProfileFields } from '../customers/customer';
import type { CustomerType, KycStatus } from '../customers/customer-enums';
import type { KycLinkProvider } from '../kyc-link.dto';
import type { ContactChannel } from '../rpc/customers.rpc';
import type { Mode, Permission } from '../rpc/rpc';
import type { BeneficialOwnerPersonalInfo, VerificationError } from '../verifications/verification';
import type { BeneficialOwnerRole } from '../verifications/verification-enums';
import { dataSchema, defineCatalogue, defineEvent, PublicEventOf, redacting, withoutFields } from './catalogue';
import { operatorActionRecorded } from './operator-action.event';

/** The identity service's events (topic `payments.identity.events.v1`): platforms, credentials, customers, KYC. */

// ---- Public data ---------------------------------------------------------------------------------------------------

export interface PlatformCreatedData {
  platformId: string;
  name: string;
  createdAt: string;
}

export interface PlatformConfigFields {
  umaDomain?: string;
  webhookEndpoint?: string;
  /** Absent = ACTIVE (events before webhooks existed carry none). */
  webhookEndpointStatus?: 'ACTIVE' | 'DISABLED';
  supportedCurrencies: PlatformCurrencyConfig[];
  /** Active platform fees (absent in events from before fee configs existed: none). */
  feeConfigs?: FeeConfig[];
  /** Embedded-wallet branding and OTP settings, once set (no secrets: sender addresses are the operator's configuration). */
  embeddedWalletConfig?: EmbeddedWalletConfig;
}

/** A platform's configuration of one mode (stream `PlatformConfig:<uuid>`), as first written. */
export interface PlatformConfigInitializedData extends PlatformConfigFields {
  configId: string;
  platformId: string;
  mode: Mode;
  at: string;
}

/** Only the fields that changed; `webhookEndpoint: null` means it was removed. */
export interface PlatformConfigUpdatedData {
  /**
   * `feeConfigs` is the whole list after the upsert and `embeddedWalletConfig` the whole configuration after the merge,
   * so consumers need no merge rule.
   */
  changes: {
    umaDomain?: string;
    webhookEndpoint?: string | null;
    supportedCurrencies?: PlatformCurrencyConfig[];
    feeConfigs?: FeeConfig[];
    embeddedWalletConfig?: EmbeddedWalletConfig;
  };
  at: string;
}

/** The dispatcher saw 410 Gone from `endpoint`: nothing more is delivered to it until an endpoint is set again. */
export interface WebhookEndpointDisabledData {
  endpoint: string;
  reason: string;
  at: string;
}

/** An API credential was created (its secret and the secret's hash never leave identity). */
export interface TokenCreatedData {
  tokenId: string;
  platformId: string;
  mode: Mode;
  name: string;
  permissions: Permission[];
  clientId: string;
  createdAt: string;
}

/** An API credential was deleted: gateways drop it from their credential caches. */
export interface TokenDeletedData {
  tokenId: string;
  platformId: string;
  mode: Mode;
  clientId: string;
  deletedAt: string;
}

/** What the platform told us about the customer (request fields after normalisation), without its id number. */
export type CustomerPublicProfile = CustomerProfileFields;

export interface CustomerCreatedData {
  customerId: string;
  platformId: string;
  mode: Mode;
  customerType: CustomerType;
  platformCustomerId: string;
  umaAddress: string;
  /** Currencies of the customer's internal accounts (the accounts service opens one per currency). */
  currencies: string[];
  profile: CustomerPublicProfile;
  requiredChannels: ContactChannel[];
  createdAt: string;
}

/** Only what changed. */
export interface CustomerUpdatedData {
  changes: CustomerPublicProfile & { platformCustomerId?: string; umaAddress?: string; currencies?: string[] };
  /** Channels required after the change, and those that must be verified again (a changed email, say). */
  requiredChannels: ContactChannel[];
  resetChannels: ContactChannel[];
  updatedAt: string;
}

export interface CustomerDeletedData {
  customerId: string;
  deletedAt: string;
}

/** KYC (individuals) or KYB (businesses) status moved; the webhook dispatcher maps it to CUSTOMER.KYC_* / KYB_*. */
export interface CustomerKycStatusChangedData {
  customerType: CustomerType;
  kycStatus: KycStatus;
  previous: KycStatus;
  verificationId?: string;
  at: string;
}

/** A bulk CSV import (stream `Job:<uuid>`) finished; every imported row has its own CustomerCreated.v1. */
export interface CustomerImportJobCompletedData {
  total: number;
  succeeded: number;
  failed: number;
  completedAt: string;
}

/** The file itself could not be processed (malformed CSV, too many rows); no row was imported. */
export interface CustomerImportJobFailedData {
  error: CustomerImportRowError;
  failedAt: string;
}

/** Who a verification is about; on every event that can open a verification stream. */
export interface VerificationScope {
  verificationId: string;
  customerId: string;
  platformId: string;
  mode: Mode;
  customerType: CustomerType;
}

/** Submitted with inputs missing: nothing goes to review; `errors` says what to fix before submitting again. */
export interface VerificationErrorsFoundData extends VerificationScope {
  attempt: number;
  errors: VerificationError[];
  at: string;
}

/** Submitted complete: the case is under review. `documentIds` are the documents handed over (now undeletable). */
export interface VerificationSubmittedData extends VerificationScope {
  attempt: number;
  verificationStatus: 'IN_PROGRESS' | 'PENDING_MANUAL_REVIEW';
  documentIds: string[];
  submittedAt: string;
}

export interface VerificationApprovedData {
  verificationId: string;
  customerId: string;
  customerType: CustomerType;
  attempt: number;
  at: string;
}

export interface VerificationRejectedData {
  verificationId: string;
  customerId: string;
  customerType: CustomerType;
  attempt: number;
  errors: VerificationError[];
  at: string;
}

/** What the platform told us about a beneficial owner, without the person's id number (the API's personalInfo, as sent). */
export type OwnerPublicPersonalInfo = Omit<BeneficialOwnerPersonalInfo, 'identifierLast4'>;

/** A beneficial owner's own verification outcome: PENDING until the business it belongs to is decided. */
export type OwnerKycStatus = Extract<KycStatus, 'PENDING' | 'APPROVED' | 'REJECTED'>;

/** A business customer's beneficial owner (stream `BeneficialOwner:<uuid>`) was added. */
export interface BeneficialOwnerAddedData {
  beneficialOwnerId: string;
  customerId: string;
  platformId: string;
  mode: Mode;
  roles: BeneficialOwnerRole[];
  ownershipPercentage: number;
  personalInfo: OwnerPublicPersonalInfo;
  createdAt: string;
}

/** Only what changed; `personalInfo` holds only the changed fields of it (an address as a whole). */
export interface BeneficialOwnerUpdatedData {
  changes: { roles?: BeneficialOwnerRole[]; ownershipPercentage?: number; personalInfo?: Partial<OwnerPublicPersonalInfo> };
  updatedAt: string;
}

/** The owner was verified (once the business's verification is decided). */
export interface BeneficialOwnerKycStatusChangedData {
  beneficialOwnerId: string;
  customerId: string;
  kycStatus: OwnerKycStatus;
  previous: OwnerKycStatus;
  verificationId?: string;
  at: string;
}

/** A hosted KYC link (stream `KycLink:<uuid>`) was issued to a customer; its token never leaves identity. */
export interface KycLinkIssuedData {
  linkId: string;
  customerId: string;
  platformId: string;
  mode: Mode;
  provider: KycLinkProvider;
  redirectUri?: string;
  expiresAt: string;
  issuedAt: string;
}

/** The end user opened the page; the link cannot be used again. */
export interface KycLinkOpenedData {
  linkId: string;
  customerId: string;
  openedAt: string;
}

// ---- Catalogue ----------------------------------------------------------------------------------------------------

const service = 'identity';

export const IDENTITY_EVENTS = defineCatalogue(service, [
  operatorActionRecorded(service),
  defineEvent({ service, name: 'PlatformCreated', version: 1, visibility: 'public', data: dataSchema<PlatformCreatedData>('PlatformCreatedData'), description: 'A platform (tenant) was created.' }),
  defineEvent({
    service,
    name: 'PlatformConfigInitialized',
    version: 1,
    visibility: 'public',
    data: dataSchema<PlatformConfigInitializedData>('PlatformConfigInitializedData'),
    description: "A platform's configuration of one mode was created: currencies, fees, webhook endpoint.",
  }),
  defineEvent({ service, name: 'PlatformConfigUpdated', version: 1, visibility: 'public', data: dataSchema<PlatformConfigUpdatedData>('PlatformConfigUpdatedData'), description: "A platform's configuration changed (only the changed fields)." }),
  defineEvent({ service, name: 'WebhookEndpointDisabled', version: 1, visibility: 'public', data: dataSchema<WebhookEndpointDisabledData>('WebhookEndpointDisabledData'), description: 'The webhook endpoint answered 410 Gone and was disabled.' }),
  defineEvent({
    service,
    name: 'TokenCreated',
    version: 1,
    visibility: 'public',
    data: dataSchema<TokenCreatedData>('TokenCreatedData'),
    publicData: redacting<TokenCreatedData>('secretHash'),
    description: 'An API credential was created (published without its secret hash).',
  }),
  defineEvent({ service, name: 'TokenDeleted', version: 1, visibility: 'public', data: dataSchema<TokenDeletedData>('TokenDeletedData'), description: 'An API credential was deleted.' }),
  defineEvent({
    service,
    name: 'CustomerCreated',
    version: 1,
    visibility: 'public',
    data: dataSchema<CustomerCreatedData>('CustomerCreatedData'),
    publicData: redacting<CustomerCreatedData>('identifier'),
    description: "A customer was created (published without the customer's id number).",
  }),
  defineEvent({
    service,
    name: 'CustomerUpdated',
    version: 1,
    visibility: 'public',
    data: dataSchema<CustomerUpdatedData>('CustomerUpdatedData'),
    publicData: redacting<CustomerUpdatedData>('identifier'),
    description: "A customer's profile changed (only the changed fields, without the id number).",
  }),
  defineEvent({ service, name: 'CustomerDeleted', version: 1, visibility: 'public', data: dataSchema<CustomerDeletedData>('CustomerDeletedData'), description: 'A customer was deleted.' }),
  defineEvent({
    service,
    name: 'CustomerKycStatusChanged',
    version: 1,
    visibility: 'public',
    data: dataSchema<CustomerKycStatusChangedData>('CustomerKycStatusChangedData'),
    description: "A customer's KYC (individual) or KYB (business) status moved.",
  }),
  defineEvent({
    service,
    name: 'CustomerImportJobCompleted',
    version: 1,
    visibility: 'public',
    data: dataSchema<CustomerImportJobCompletedData>('CustomerImportJobCompletedData'),
    description: 'A bulk customer import finished.',
  }),
  defineEvent({ service, name: 'CustomerImportJobFailed', version: 1, visibility: 'public', data: dataSchema<CustomerImportJobFailedData>('CustomerImportJobFailedData'), description: 'A bulk customer import file could not be processed.' }),
  defineEvent({
    service,
    name: 'VerificationErrorsFound',
    version: 1,
    visibility: 'public',
    data: dataSchema<VerificationErrorsFoundData>('VerificationErrorsFoundData'),
    description: 'A verification was submitted with inputs missing.',
  }),
  defineEvent({
    service,
    name: 'VerificationSubmitted',
    version: 1,
    visibility: 'public',
    data: dataSchema<VerificationSubmittedData>('VerificationSubmittedData'),
    publicData: withoutFields<VerificationSubmittedData>('sandboxDecision'),
    description: "A verification went to review (published without the sandbox's simulated decision).",
  }),
  defineEvent({ service, name: 'VerificationApproved', version: 1, visibility: 'public', data: dataSchema<VerificationApprovedData>('VerificationApprovedData'), description: 'A verification was approved.' }),
  defineEvent({ service, name: 'VerificationRejected', version: 1, visibility: 'public', data: dataSchema<VerificationRejectedData>('VerificationRejectedData'), description: 'A verification was rejected.' }),
  defineEvent({
    service,
    name: 'BeneficialOwnerAdded',
    version: 1,
    visibility: 'public',
    data: dataSchema<BeneficialOwnerAddedData>('BeneficialOwnerAddedData'),
    publicData: redacting<BeneficialOwnerAddedData>('identifier'),
    description: "A business customer's beneficial owner was added (published without the person's id number).",
  }),
  defineEvent({
    service,
    name: 'BeneficialOwnerUpdated',
    version: 1,
    visibility: 'public',
    data: dataSchema<BeneficialOwnerUpdatedData>('BeneficialOwnerUpdatedData'),
    publicData: redacting<BeneficialOwnerUpdatedData>('identifier'),
    description: "A beneficial owner's data changed (only the changed fields, without the id number).",
  }),
  defineEvent({
    service,
    name: 'BeneficialOwnerKycStatusChanged',
    version: 1,
    visibility: 'public',
    data: dataSchema<BeneficialOwnerKycStatusChangedData>('BeneficialOwnerKycStatusChangedData'),
    description: "A beneficial owner's own verification was decided.",
  }),
  defineEvent({
    service,
    name: 'KycLinkIssued',
    version: 1,
    visibility: 'public',
    data: dataSchema<KycLinkIssuedData>('KycLinkIssuedData'),
    publicData: redacting<KycLinkIssuedData>('secretHash'),
    description: 'A hosted KYC link was issued to a customer (published without its secret hash).',
  }),
  defineEvent({ service, name: 'KycLinkOpened', version: 1, visibility: 'public', data: dataSchema<KycLinkOpenedData>('KycLinkOpenedData'), description: 'The customer opened a hosted KYC link.' }),
  // Internal: the mechanics behind the public facts, and where secrets or PII live.
  defineEvent({ service, name: 'ContactCodeIssued', version: 1, visibility: 'internal', description: 'A one-time contact code was sent (carries its hash).' }),
  defineEvent({ service, name: 'ContactCodeRejected', version: 1, visibility: 'internal', description: 'A wrong contact code was entered (attempt counting, lock-out).' }),
  defineEvent({ service, name: 'ContactVerified', version: 1, visibility: 'internal', description: 'A contact channel was verified by its code.' }),
  defineEvent({ service, name: 'CustomerImportJobCreated', version: 1, visibility: 'internal', description: 'A bulk import file was accepted (progress bookkeeping).' }),
  defineEvent({ service, name: 'CustomerImportJobStarted', version: 1, visibility: 'internal', description: 'A bulk import file was parsed (progress bookkeeping).' }),
  defineEvent({ service, name: 'DocumentUploaded', version: 1, visibility: 'internal', description: 'A KYC document was stored (storage keys, document numbers).' }),
  defineEvent({ service, name: 'DocumentReplaced', version: 1, visibility: 'internal', description: "A KYC document's file was replaced." }),
  defineEvent({ service, name: 'DocumentSubmitted', version: 1, visibility: 'internal', description: 'A KYC document was handed to a verification.' }),
  defineEvent({ service, name: 'DocumentDeleted', version: 1, visibility: 'internal', description: 'A KYC document was deleted.' }),
  defineEvent({ service, name: 'KycReviewOpened', version: 1, visibility: 'internal', description: 'A complete production submission entered the manual review queue.' }),
  defineEvent({ service, name: 'KycReviewApprovalRecorded', version: 1, visibility: 'internal', description: "A reviewer's approval of a submission under manual review (four-eyes)." }),
  defineEvent({ service, name: 'KycReviewReset', version: 1, visibility: 'internal', description: 'The identity under manual review changed materially: the approvals recorded until then were dropped.' }),
  defineEvent({ service, name: 'KycReviewDecided', version: 1, visibility: 'internal', description: 'A submission under manual review was decided (the verification follows in the same commit).' }),
  defineEvent({ service, name: 'OperatorCreated', version: 1, visibility: 'internal', description: 'An operator of the deployment was created (carries the hash of their secret).' }),
  defineEvent({ service, name: 'OperatorDisabled', version: 1, visibility: 'internal', description: 'An operator was disabled: their credentials stop working at once.' }),
]);

/** The customer lifecycle as other services keep their copy of it (payments' and quoting's customer directories). */
export type CustomerLifecycleEvent = Extract<PublicEventOf<typeof IDENTITY_EVENTS>, { type: 'CustomerCreated.v1' | 'CustomerUpdated.v1' | 'CustomerDeleted.v1' }>;
export type CustomerKycStatusChangedEvent = Extract<PublicEventOf<typeof IDENTITY_EVENTS>, { type: 'CustomerKycStatusChanged.v1' }>;
