import { isDeepStrictEqual } from 'node:util';
import { CreateCustomerRequest, CustomerType, KycStatus, Mode, UpdateCustomerRequest } from '@payments/contracts';
import { assertNever, Decider, DomainError } from '@payments/eventsourcing';
import { ContactChannel, CustomerEvent, CustomerProfile } from './customer.events';
import { materialCustomerFields } from '../kyc-reviews/material-identity';
import { profileErrors, requiredChannels } from './customer.rules';
import { CustomerState, evolveCustomer } from './customer.state';
import { decideConfirmCode, decideIssueCode } from './contact.decide';

export type CustomerCommand =
  | {
      type: 'CreateCustomer';
      customerId: string;
      platformId: string;
      mode: Mode;
      request: CreateCustomerRequest;
      /** Values the service resolved: generated id or UMA address, the platform's currencies. */
      platformCustomerId: string;
      umaAddress: string;
      currencies: string[];
      currentTermsVersion: string;
      now: string;
    }
  | { type: 'UpdateCustomer'; request: UpdateCustomerRequest; currentTermsVersion: string; now: string }
  | { type: 'DeleteCustomer'; now: string }
  | { type: 'IssueContactCode'; channel: ContactChannel; codeHash: string; expiresAt: string; now: string }
  | { type: 'ConfirmContactCode'; channel: ContactChannel; codeHash: string; attemptsMax: number; lockMs: number; now: string }
  | { type: 'SetKycStatus'; kycStatus: KycStatus; verificationId?: string; now: string };

const NOT_FOUND = () => new DomainError('USER_NOT_FOUND', 'customer not found'); // the published 404 code for a customer

export const customerDecider: Decider<CustomerState, CustomerCommand, CustomerEvent> = {
  initialState: { status: 'NONE' },
  evolve: evolveCustomer,
  decide(command, state) {
    switch (command.type) {
      case 'CreateCustomer':
        return state.status === 'NONE' ? decideCreate(command) : new DomainError('CONFLICT', 'customer already exists');
      case 'UpdateCustomer':
        return state.status === 'ACTIVE' ? decideUpdate(command, state) : NOT_FOUND();
      case 'DeleteCustomer':
        if (state.status === 'DELETED') return new DomainError('CUSTOMER_DELETED', 'customer was already deleted');
        return state.status === 'ACTIVE' ? [{ type: 'CustomerDeleted.v1', data: { customerId: state.customerId, deletedAt: command.now } }] : NOT_FOUND();
      case 'IssueContactCode':
        return state.status === 'ACTIVE' ? decideIssueCode(command, state) : NOT_FOUND();
      case 'ConfirmContactCode':
        return state.status === 'ACTIVE' ? decideConfirmCode(command, state) : NOT_FOUND();
      case 'SetKycStatus':
        if (state.status !== 'ACTIVE') return NOT_FOUND();
        if (state.kycStatus === command.kycStatus) return [];
        return [
          {
            type: 'CustomerKycStatusChanged.v1',
            data: { customerType: state.customerType, kycStatus: command.kycStatus, previous: state.kycStatus, verificationId: command.verificationId, at: command.now },
          },
        ];
      default:
        return assertNever(command);
    }
  },
};

function decideCreate(command: Extract<CustomerCommand, { type: 'CreateCustomer' }>): CustomerEvent[] | DomainError {
  const { customerType, platformCustomerId: _p, umaAddress: _u, currencies: _c, ...fields } = command.request;
  const profile = clean(fields);
  const invalid = validate(customerType, profile, command.currencies, command.now, command.currentTermsVersion);
  if (invalid) return invalid;
  const { now: createdAt, customerId, platformId, mode, platformCustomerId, umaAddress, currencies } = command;
  return [
    {
      type: 'CustomerCreated.v1',
      data: { customerId, platformId, mode, customerType, platformCustomerId, umaAddress, currencies, profile, requiredChannels: requiredChannels(profile), createdAt },
    },
  ];
}

function decideUpdate(command: Extract<CustomerCommand, { type: 'UpdateCustomer' }>, state: Extract<CustomerState, { status: 'ACTIVE' }>) {
  const { customerType, platformCustomerId, umaAddress, currencies, ...fields } = command.request;
  if (customerType && customerType !== state.customerType) return new DomainError('INVALID_INPUT', `customerType cannot change from ${state.customerType}`, { errors: [{ field: 'customerType', message: 'cannot change' }] });
  if (fields.email !== undefined && fields.phoneNumber !== undefined) {
    return new DomainError('INVALID_INPUT', 'change email and phoneNumber in separate requests', { errors: [{ field: 'phoneNumber', message: 'send email and phoneNumber separately' }] });
  }
  const sent = clean(fields);
  // businessInfo is partial (published BusinessInfoUpdate): the fields sent replace the stored ones, the others stay.
  if (sent.businessInfo) sent.businessInfo = { ...state.profile.businessInfo, ...sent.businessInfo };
  const changes = changedFields({ ...sent, platformCustomerId, umaAddress, currencies }, { ...state.profile, platformCustomerId: state.platformCustomerId, umaAddress: state.umaAddress, currencies: state.currencies });
  if (Object.keys(changes).length === 0) return [];
  const locked = identityLocked(state, Object.keys(changes));
  if (locked) return locked;
  const profile = { ...state.profile, ...pick(changes, (k) => !['platformCustomerId', 'umaAddress', 'currencies'].includes(k)) };
  const invalid = validate(state.customerType, profile, (changes.currencies as string[] | undefined) ?? state.currencies, command.now, command.currentTermsVersion);
  if (invalid) return invalid;
  const required = requiredChannels(profile);
  const reset = required.filter((c) => (c === 'email' ? changes.email !== undefined : changes.phoneNumber !== undefined));
  return [{ type: 'CustomerUpdated.v1' as const, data: { changes, requiredChannels: required, resetChannels: reset, updatedAt: command.now } }];
}

/**
 * A production customer whose KYC/KYB is APPROVED keeps the identity that was approved: a material change is 409
 * (docs/kyc.md#after-approval). Contact details and the platform's own handles still change; the sandbox is free.
 */
function identityLocked(state: Extract<CustomerState, { status: 'ACTIVE' }>, changed: string[]): DomainError | undefined {
  if (state.mode !== 'PRODUCTION' || state.kycStatus !== 'APPROVED') return undefined;
  const fields = materialCustomerFields(changed);
  if (fields.length === 0) return undefined;
  return new DomainError('KYC_IDENTITY_LOCKED', `the customer's identity was approved as it is: ${fields.join(', ')} cannot change after approval`, { fields });
}

function validate(type: CustomerType, profile: CustomerProfile, currencies: string[], now: string, termsVersion: string): DomainError | undefined {
  if (profile.endUserTermsConsent && profile.endUserTermsConsent.termsVersion !== termsVersion) {
    return new DomainError('END_USER_TERMS_VERSION_NOT_FOUND', `end-user terms version ${profile.endUserTermsConsent.termsVersion} does not exist; the current one is ${termsVersion}`);
  }
  const errors = profileErrors(type, profile, currencies, now.slice(0, 10));
  return errors.length > 0 ? new DomainError('INVALID_INPUT', 'the customer is invalid', { errors }) : undefined;
}

/** Plain data only: DTO instances become JSON-shaped objects and undefined fields disappear. */
function clean(value: object): CustomerProfile {
  return JSON.parse(JSON.stringify(value));
}

function changedFields(next: Record<string, unknown>, current: Record<string, unknown>): Record<string, any> {
  return pick(next, (k) => next[k] !== undefined && !isDeepStrictEqual(next[k], current[k]));
}

function pick(source: Record<string, unknown>, keep: (key: string) => boolean): Record<string, any> {
  return Object.fromEntries(Object.entries(source).filter(([k]) => keep(k)));
}

