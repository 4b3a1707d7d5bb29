import { given } from '@payments/eventsourcing';
import { CustomerImportJobCommand, customerImportJobDecider as decider } from './customer-import.decider';
import { CustomerImportJobEvent } from './customer-import.events';

const now = '2026-03-01T10:00:00.000Z';
const create: CustomerImportJobCommand = { type: 'CreateJob', jobId: 'Job:j', platformId: 'Platform:p', mode: 'SANDBOX', fileName: 'c.csv', sizeBytes: 10, sha256: 'ab', createdBy: 'client', now };
const created: CustomerImportJobEvent = {
  type: 'CustomerImportJobCreated.v1',
  data: { jobId: 'Job:j', platformId: 'Platform:p', mode: 'SANDBOX', fileName: 'c.csv', sizeBytes: 10, sha256: 'ab', createdBy: 'client', createdAt: now },
};
const started: CustomerImportJobEvent = { type: 'CustomerImportJobStarted.v1', data: { total: 3, startedAt: now } };
const completed: CustomerImportJobEvent = { type: 'CustomerImportJobCompleted.v1', data: { total: 3, succeeded: 2, failed: 1, completedAt: now } };
const fileError = { row: 2, code: 'INVALID_INPUT', message: 'malformed CSV' };

describe('customerImportJobDecider', () => {
  it('creates a PENDING job once', () => {
    given(decider).when(create).then([created]);
    given(decider, [created]).when(create).then([]);
  });

  it('starts with the row count, and a repeated start (a resumed worker) decides nothing', () => {
    given(decider, [created]).when({ type: 'StartJob', total: 3, now }).then([started]);
    given(decider, [created, started]).when({ type: 'StartJob', total: 3, now }).then([]);
    given(decider).when({ type: 'StartJob', total: 3, now }).thenFails('BULK_UPLOAD_JOB_NOT_FOUND');
  });

  it('completes only a PROCESSING job whose outcomes cover every row, once', () => {
    given(decider, [created, started]).when({ type: 'CompleteJob', succeeded: 2, failed: 1, now }).then([completed]);
    given(decider, [created, started]).when({ type: 'CompleteJob', succeeded: 1, failed: 1, now }).thenFails('CONFLICT');
    given(decider, [created]).when({ type: 'CompleteJob', succeeded: 0, failed: 0, now }).thenFails('CONFLICT');
    given(decider, [created, started, completed]).when({ type: 'CompleteJob', succeeded: 2, failed: 1, now }).then([]);
  });

  it('fails a pending or processing job on a file error, never a completed one', () => {
    const failed: CustomerImportJobEvent = { type: 'CustomerImportJobFailed.v1', data: { error: fileError, failedAt: now } };
    given(decider, [created]).when({ type: 'FailJob', error: fileError, now }).then([failed]);
    given(decider, [created, started]).when({ type: 'FailJob', error: fileError, now }).then([failed]);
    given(decider, [created, failed]).when({ type: 'FailJob', error: fileError, now }).then([]);
    given(decider, [created, started, completed]).when({ type: 'FailJob', error: fileError, now }).thenFails('CONFLICT');
    expect(given(decider, [created, failed]).state.status).toBe('FAILED');
  });
});
