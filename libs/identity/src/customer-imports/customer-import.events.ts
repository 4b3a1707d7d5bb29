import type { Catalogued, CustomerImportJobCompletedData, CustomerImportJobFailedData, IDENTITY_EVENTS, Mode } from '@payments/contracts';

/**
 * Lifecycle of one bulk CSV import (stream `Job:<uuid>`). Progress and per-row outcomes are deliberately not
 * events: every imported row already has its own CustomerCreated.v1 (whose metadata names the job and row), and
 * an event per row or per batch would repeat that on the bus. They live in plain tables written in the batch
 * transaction (customer-import.batch.ts).
 */
export type CustomerImportJobCreated = {
  type: 'CustomerImportJobCreated.v1';
  data: { jobId: string; platformId: string; mode: Mode; fileName: string; sizeBytes: number; sha256: string; createdBy: string; createdAt: string };
};

/** The file parsed: `total` data rows will be processed. */
export type CustomerImportJobStarted = { type: 'CustomerImportJobStarted.v1'; data: { total: number; startedAt: string } };

export type CustomerImportJobCompleted = { type: 'CustomerImportJobCompleted.v1'; data: CustomerImportJobCompletedData };

/** The file itself could not be processed (malformed CSV, too many rows); no row was imported. */
export type CustomerImportJobFailed = { type: 'CustomerImportJobFailed.v1'; data: CustomerImportJobFailedData };

export type CustomerImportJobEvent = CustomerImportJobCreated | CustomerImportJobStarted | CustomerImportJobCompleted | CustomerImportJobFailed;

/** Every event of the stream is declared in the identity catalogue, its stored data fitting the declaration. */
const _declared: Catalogued<typeof IDENTITY_EVENTS, CustomerImportJobEvent> = true;
