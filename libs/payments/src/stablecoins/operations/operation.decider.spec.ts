import { given } from '@payments/eventsourcing';
import { operationDecider } from './operation.decider';
import { OperationEvent, OperationTerms } from './operation.events';

const at = '2026-11-26T10:00:00.000Z';
const later = '2026-11-26T10:00:05.000Z';
const terms = (fundingRequired: boolean): OperationTerms => ({
  operationId: 'StablecoinOperation:1', platformId: 'Platform:1', mode: 'SANDBOX', stablecoinId: 'Stablecoin:1', operationType: 'MINT', amount: '1000000', fiatAmount: 100, fiatCurrency: 'USD',
  provider: 'BRALE', providerEnvironment: 'SANDBOX', stablecoinProviderAccountId: 'StablecoinProviderAccount:1', providerAccountId: 'acct', providerTokenIdentifier: 'ACME',
  source: { type: fundingRequired ? 'WIRE' : 'PROVIDER_INTERNAL_BALANCE' }, destination: { accountId: 'ExternalAccount:1' }, fundingRequired, createdAt: at,
});
const created = (fundingRequired: boolean): OperationEvent => ({ type: 'StablecoinOperationCreated.v1', data: terms(fundingRequired) });
const submitted = (status: 'PENDING_FUNDING' | 'PENDING_PROVIDER', expiresAt?: string): OperationEvent => ({ type: 'StablecoinOperationSubmitted.v1', data: { providerOperationId: 'p1', status, providerStatus: 'x', ...(expiresAt ? { expiresAt } : {}), at } });
const types = (events: unknown) => (events as OperationEvent[]).map((e) => (e.type === 'StablecoinOperationUpdated.v1' ? `→${e.data.operation.status}` : e.type));

describe('stablecoin operation decider', () => {
  it('creation and every status change carry the operation after it (the webhook)', () => {
    expect(types(given(operationDecider).when({ type: 'Create', terms: terms(true) }).decision)).toEqual(['StablecoinOperationCreated.v1', '→CREATED']);
    expect(types(given(operationDecider, [created(true)]).when({ type: 'Submit', submission: { providerOperationId: 'p1', status: 'PENDING_FUNDING', providerStatus: 'x', at } }).decision)).toEqual(['StablecoinOperationSubmitted.v1', '→PENDING_FUNDING']);
  });

  it('reports move forward only, and stages passed between two looks are recorded each with its update', () => {
    const waiting = [created(true), submitted('PENDING_FUNDING')];
    const jump = given(operationDecider, waiting).when({ type: 'Report', stage: 'COMPLETED', providerStatus: 'complete', ledgerEntryId: 'e1', at: later }).decision;
    expect(types(jump)).toEqual(['StablecoinOperationFunded.v1', '→PENDING_PROVIDER', 'StablecoinOperationProcessing.v1', '→PROCESSING', 'StablecoinOperationCompleted.v1', '→COMPLETED']);
    const processing: OperationEvent = { type: 'StablecoinOperationProcessing.v1', data: { providerStatus: 'processing', at } };
    given(operationDecider, [created(false), submitted('PENDING_PROVIDER'), processing]).when({ type: 'Report', stage: 'PENDING_PROVIDER', providerStatus: 'pending', at }).then([]);
    given(operationDecider, [created(false), submitted('PENDING_PROVIDER')]).when({ type: 'Report', stage: 'COMPLETED', providerStatus: 'complete', at }).thenFails('INVALID_INPUT');
  });

  it('nothing changes a final operation; a repeated submission changes nothing', () => {
    const failed: OperationEvent = { type: 'StablecoinOperationFailed.v1', data: { failureReason: 'PROVIDER_TRANSFER_FAILED', providerStatus: 'failed', at } };
    const history = [created(false), submitted('PENDING_PROVIDER'), failed];
    given(operationDecider, history).when({ type: 'Report', stage: 'COMPLETED', providerStatus: 'complete', ledgerEntryId: 'e1', at }).then([]);
    given(operationDecider, history).when({ type: 'Reject', failureReason: 'X', providerStatus: 'x', at }).then([]);
    given(operationDecider, [created(false), submitted('PENDING_PROVIDER')]).when({ type: 'Submit', submission: { providerOperationId: 'p2', status: 'PENDING_PROVIDER', providerStatus: 'x', at } }).then([]);
  });

  it('the sandbox funding needs PENDING_FUNDING inside the window; expiry comes only once the window closed', () => {
    const waiting = [created(true), submitted('PENDING_FUNDING', later)];
    expect(types(given(operationDecider, waiting).when({ type: 'Fund', at }).decision)).toEqual(['StablecoinOperationFunded.v1', '→PENDING_PROVIDER']);
    given(operationDecider, waiting).when({ type: 'Fund', at: later }).thenFails('INVALID_STATE_TRANSITION');
    given(operationDecider, [created(false), submitted('PENDING_PROVIDER')]).when({ type: 'Fund', at }).thenFails('INVALID_STATE_TRANSITION');
    given(operationDecider, waiting).when({ type: 'Expire', at }).then([]);
    expect(types(given(operationDecider, waiting).when({ type: 'Expire', at: later }).decision)).toEqual(['StablecoinOperationExpired.v1', '→EXPIRED']);
    given(operationDecider).when({ type: 'Fund', at }).thenFails('REFERENCE_NOT_FOUND');
  });
});
