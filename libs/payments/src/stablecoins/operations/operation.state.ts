import { assertNever } from '@payments/eventsourcing';
import type { StablecoinFundingInstructions, StablecoinOperationStatus } from '@payments/contracts';
import { OperationEvent, OperationTerms } from './operation.events';

export interface ExistingOperation extends OperationTerms {
  status: StablecoinOperationStatus;
  providerOperationId?: string;
  providerStatus?: string;
  fundingInstructions?: StablecoinFundingInstructions;
  expiresAt?: string;
  failureReason?: string;
  submittedAt?: string;
  fundedAt?: string;
  ledgerEntryId?: string;
  updatedAt: string;
}

export type OperationState = { status: 'NONE' } | ExistingOperation;

export function evolveOperation(state: OperationState, event: OperationEvent): OperationState {
  if (event.type === 'StablecoinOperationCreated.v1') return { ...event.data, status: 'CREATED', updatedAt: event.data.createdAt };
  if (state.status === 'NONE') return state;
  switch (event.type) {
    case 'StablecoinOperationSubmitted.v1': {
      const { at, ...submitted } = event.data;
      return { ...state, ...submitted, submittedAt: at, updatedAt: at };
    }
    case 'StablecoinOperationFunded.v1':
      return { ...state, status: 'PENDING_PROVIDER', providerStatus: event.data.providerStatus, fundedAt: event.data.at, updatedAt: event.data.at };
    case 'StablecoinOperationProcessing.v1':
      return { ...state, status: 'PROCESSING', providerStatus: event.data.providerStatus, updatedAt: event.data.at };
    case 'StablecoinOperationCompleted.v1':
      return { ...state, status: 'COMPLETED', providerStatus: event.data.providerStatus, ledgerEntryId: event.data.ledgerEntryId, updatedAt: event.data.at };
    case 'StablecoinOperationFailed.v1':
      return { ...state, status: 'FAILED', providerStatus: event.data.providerStatus, failureReason: event.data.failureReason, updatedAt: event.data.at };
    case 'StablecoinOperationExpired.v1':
      return { ...state, status: 'EXPIRED', updatedAt: event.data.at };
    case 'StablecoinOperationUpdated.v1':
      return state;
    default:
      return assertNever(event);
  }
}
