import { quoteStep, transactionFailure } from './action-outcome';

const now = Date.parse('2026-11-24T10:00:00.000Z');
const later = '2026-11-24T10:05:00.000Z';
const earlier = '2026-11-24T09:59:59.000Z';

describe('agent action outcome', () => {
  it('executes a PENDING quote in time; one past expiresAt or EXPIRED fails the action (every quote has a transactionId: only its status counts)', () => {
    expect(quoteStep({ status: 'PENDING', expiresAt: later }, now)).toBe('EXECUTE');
    expect(quoteStep({ status: 'PENDING', expiresAt: earlier }, now)).toBe('EXPIRED');
    expect(quoteStep({ status: 'PENDING', expiresAt: '2026-11-24T10:00:00.000Z' }, now)).toBe('EXPIRED');
    expect(quoteStep({ status: 'EXPIRED', expiresAt: later }, now)).toBe('EXPIRED');
  });

  it('takes an executed quote (a repeated run) as executed, even past its expiresAt; does not execute one waiting for SCA', () => {
    for (const status of ['PROCESSING', 'COMPLETED', 'FAILED'] as const) expect(quoteStep({ status, expiresAt: earlier }, now)).toBe('EXECUTED');
    expect(quoteStep({ status: 'PENDING_AUTHORIZATION', expiresAt: later }, now)).toBe('NOT_EXECUTABLE');
  });

  it('a transaction that came back FAILED fails the action with the finer reason; any other status does not', () => {
    expect(transactionFailure({ status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED', failureDetail: 'INSUFFICIENT_FUNDS' })).toBe('INSUFFICIENT_FUNDS');
    expect(transactionFailure({ status: 'FAILED', failureReason: 'ACCOUNT_CANNOT_RECEIVE' })).toBe('ACCOUNT_CANNOT_RECEIVE');
    expect(transactionFailure({ status: 'FAILED' })).toBe('EXECUTION_FAILED');
    for (const status of ['PENDING', 'PROCESSING', 'COMPLETED'] as const) expect(transactionFailure({ status })).toBeUndefined();
  });
});
