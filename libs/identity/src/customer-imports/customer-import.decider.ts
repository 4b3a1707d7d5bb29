import type { CustomerImportRowError, Mode } from '@payments/contracts';
import { assertNever, Decider, DomainError } from '@payments/eventsourcing';
import { CustomerImportJobCreated, CustomerImportJobEvent } from './customer-import.events';

type JobRecord = CustomerImportJobCreated['data'];

export type CustomerImportJobState =
  | { status: 'NONE' }
  | ({ status: 'PENDING' } & JobRecord)
  | ({ status: 'PROCESSING'; total: number } & JobRecord)
  | ({ status: 'COMPLETED'; total: number; completedAt: string } & JobRecord)
  | ({ status: 'FAILED'; failedAt: string } & JobRecord);

export type CustomerImportJobCommand =
  | { type: 'CreateJob'; jobId: string; platformId: string; mode: Mode; fileName: string; sizeBytes: number; sha256: string; createdBy: string; now: string }
  | { type: 'StartJob'; total: number; now: string }
  | { type: 'CompleteJob'; succeeded: number; failed: number; now: string }
  | { type: 'FailJob'; error: CustomerImportRowError; now: string };

const notFound = () => new DomainError('BULK_UPLOAD_JOB_NOT_FOUND', 'import job not found');
const finished = (status: string) => new DomainError('CONFLICT', `the import job is ${status}`);

/**
 * PENDING → PROCESSING → COMPLETED, or → FAILED when the file cannot be processed. Repeating a transition the job
 * already made decides nothing: a worker that resumes after a crash may ask again.
 */
export const customerImportJobDecider: Decider<CustomerImportJobState, CustomerImportJobCommand, CustomerImportJobEvent> = {
  initialState: { status: 'NONE' },
  decide(command, state) {
    switch (command.type) {
      case 'CreateJob': {
        if (state.status !== 'NONE') return [];
        const { type: _t, now: createdAt, ...data } = command;
        return [{ type: 'CustomerImportJobCreated.v1', data: { ...data, createdAt } }];
      }
      case 'StartJob':
        if (state.status === 'NONE') return notFound();
        if (state.status !== 'PENDING') return state.status === 'PROCESSING' ? [] : finished(state.status);
        return [{ type: 'CustomerImportJobStarted.v1', data: { total: command.total, startedAt: command.now } }];
      case 'CompleteJob':
        if (state.status === 'NONE') return notFound();
        if (state.status === 'COMPLETED') return [];
        if (state.status !== 'PROCESSING') return finished(state.status);
        if (command.succeeded + command.failed !== state.total) return new DomainError('CONFLICT', `outcomes (${command.succeeded + command.failed}) do not cover the ${state.total} rows`);
        return [{ type: 'CustomerImportJobCompleted.v1', data: { total: state.total, succeeded: command.succeeded, failed: command.failed, completedAt: command.now } }];
      case 'FailJob':
        if (state.status === 'NONE') return notFound();
        if (state.status === 'FAILED') return [];
        if (state.status === 'COMPLETED') return finished(state.status);
        return [{ type: 'CustomerImportJobFailed.v1', data: { error: command.error, failedAt: command.now } }];
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'CustomerImportJobCreated.v1':
        return { status: 'PENDING', ...event.data };
      case 'CustomerImportJobStarted.v1':
        return state.status === 'PENDING' ? { ...state, status: 'PROCESSING', total: event.data.total } : state;
      case 'CustomerImportJobCompleted.v1':
        return state.status === 'PROCESSING' ? { ...state, status: 'COMPLETED', completedAt: event.data.completedAt } : state;
      case 'CustomerImportJobFailed.v1':
        return state.status === 'NONE' ? state : { ...state, status: 'FAILED', failedAt: event.data.failedAt };
      default:
        return assertNever(event);
    }
  },
};
