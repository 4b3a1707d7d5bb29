import { assertNever, Decider, DomainError } from '@payments/eventsourcing';
import type { StablecoinOperationStatus } from '@payments/contracts';
import type { ProviderStage } from '../provider/provider.port';
import { OperationEvent, OperationTerms, SubmittedData } from './operation.events';
import { evolveOperation, ExistingOperation, OperationState } from './operation.state';
import { toStablecoinOperation } from './operation.view';

export type OperationCommand =
  | { type: 'Create'; terms: OperationTerms }
  /** The provider accepted (or, with FAILED, rejected) the operation. */
  | { type: 'Submit'; submission: SubmittedData }
  | { type: 'Reject'; failureReason: string; providerStatus: string; at: string }
  /** What the provider reports now; COMPLETED carries the ledger entry already posted. */
  | { type: 'Report'; stage: ProviderStage; providerStatus: string; failureReason?: string; ledgerEntryId?: string; at: string }
  /** Sandbox: the simulated provider received the funds (POST /sandbox/stablecoin-operations/{id}/fund). */
  | { type: 'Fund'; at: string }
  | { type: 'Expire'; at: string };

/** Statuses only move forward; the three terminal ones share the last rank. */
const RANK: Record<StablecoinOperationStatus, number> = { CREATED: 0, PENDING_FUNDING: 1, PENDING_PROVIDER: 2, PROCESSING: 3, COMPLETED: 4, FAILED: 4, EXPIRED: 4 };
export const isFinal = (status: StablecoinOperationStatus) => RANK[status] === 4;

const notFound = () => new DomainError('REFERENCE_NOT_FOUND', 'stablecoin operation not found');

/**
 * One mint or burn (stream `StablecoinOperation:<uuid>`): CREATED → PENDING_FUNDING (until funded or expiresAt) or
 * PENDING_PROVIDER → PROCESSING → COMPLETED | FAILED. A repeated report changes nothing; every status change carries
 * the operation after it (StablecoinOperationUpdated.v1, the webhook).
 */
export const operationDecider: Decider<OperationState, OperationCommand, OperationEvent> = {
  initialState: { status: 'NONE' },
  evolve: evolveOperation,
  decide(command, state) {
    if (command.type === 'Create') return state.status === 'NONE' ? withUpdate(state, [{ type: 'StablecoinOperationCreated.v1', data: command.terms }]) : [];
    if (state.status === 'NONE') return notFound();
    const decided = decideExisting(command, state);
    return decided instanceof DomainError ? decided : withUpdate(state, decided);
  },
};

function decideExisting(command: Exclude<OperationCommand, { type: 'Create' }>, s: ExistingOperation): OperationEvent[] | DomainError {
  switch (command.type) {
    case 'Submit':
      return s.status === 'CREATED' ? [{ type: 'StablecoinOperationSubmitted.v1', data: command.submission }] : [];
    case 'Reject':
      return isFinal(s.status) ? [] : [{ type: 'StablecoinOperationFailed.v1', data: { failureReason: command.failureReason, providerStatus: command.providerStatus, at: command.at } }];
    case 'Report':
      return decideReport(command, s);
    case 'Fund':
      if (s.status !== 'PENDING_FUNDING') return new DomainError('INVALID_STATE_TRANSITION', `a ${s.status} operation is not waiting for funds`);
      if (s.expiresAt && s.expiresAt <= command.at) return new DomainError('INVALID_STATE_TRANSITION', `the funding window closed at ${s.expiresAt}`);
      return [{ type: 'StablecoinOperationFunded.v1', data: { providerStatus: 'funds_received', at: command.at } }];
    case 'Expire':
      return s.status === 'PENDING_FUNDING' && s.expiresAt !== undefined && s.expiresAt <= command.at ? [{ type: 'StablecoinOperationExpired.v1', data: { at: command.at } }] : [];
    default:
      return assertNever(command);
  }
}

/**
 * A report moves the operation forward only. Stages the provider passed between two looks are recorded too (funded,
 * then processing, then completed), so every operation shows every stage it went through, each with its webhook.
 */
function decideReport(c: Extract<OperationCommand, { type: 'Report' }>, s: ExistingOperation): OperationEvent[] | DomainError {
  if (isFinal(s.status) || s.status === 'CREATED') return [];
  const step = { providerStatus: c.providerStatus, at: c.at };
  if (c.stage === 'FAILED') return [{ type: 'StablecoinOperationFailed.v1', data: { ...step, failureReason: c.failureReason ?? 'PROVIDER_TRANSFER_FAILED' } }];
  if (c.stage === 'PENDING_FUNDING') return [];
  if (c.stage === 'COMPLETED' && !c.ledgerEntryId) return new DomainError('INVALID_INPUT', 'a completion needs its ledger entry');
  const target = RANK[c.stage];
  const events: OperationEvent[] = [];
  if (RANK[s.status] < RANK.PENDING_PROVIDER && target >= RANK.PENDING_PROVIDER) events.push({ type: 'StablecoinOperationFunded.v1', data: { ...step, providerStatus: target === RANK.PENDING_PROVIDER ? c.providerStatus : 'funds_received' } });
  if (RANK[s.status] < RANK.PROCESSING && target >= RANK.PROCESSING) events.push({ type: 'StablecoinOperationProcessing.v1', data: { ...step, providerStatus: target === RANK.PROCESSING ? c.providerStatus : 'processing' } });
  if (c.stage === 'COMPLETED') events.push({ type: 'StablecoinOperationCompleted.v1', data: { ...step, ledgerEntryId: c.ledgerEntryId! } });
  return events;
}

/** After each event that changes the status (creation included), the operation as the API shows it then. */
function withUpdate(before: OperationState, events: OperationEvent[]): OperationEvent[] {
  const out: OperationEvent[] = [];
  let state = before;
  for (const event of events) {
    const next = evolveOperation(state, event);
    out.push(event);
    if (next.status !== 'NONE' && next.status !== state.status) out.push({ type: 'StablecoinOperationUpdated.v1', data: { platformId: next.platformId, mode: next.mode, operation: toStablecoinOperation(next) } });
    state = next;
  }
  return out;
}
