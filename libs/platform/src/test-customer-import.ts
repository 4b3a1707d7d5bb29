import { eventually, HttpResult } from '@payments/testing';
import { sendForm } from './test-documents';
import type { PlatformApi } from './test-platform';

/**
 * Test fixtures for the bulk CSV import: CSV text built from row objects (quoted as RFC 4180 says), uploads over
 * real HTTP, and a bounded wait for a job to finish.
 */
export type CsvRow = Record<string, string>;

export const INDIVIDUAL_COLUMNS = ['umaAddress', 'platformCustomerId', 'customerType', 'fullName', 'birthDate', 'email', 'addressLine1', 'addressLine2', 'city', 'state', 'postalCode', 'country'];
export const ALL_COLUMNS = [...INDIVIDUAL_COLUMNS, 'businessLegalName', 'businessRegistrationNumber', 'businessTaxId', 'platformAccountId', 'description'];

export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function toCsv(rows: CsvRow[], columns = ALL_COLUMNS, eol = '\n'): string {
  return [columns.join(','), ...rows.map((row) => columns.map((c) => csvField(row[c] ?? '')).join(','))].join(eol) + eol;
}

export function individualRow(id: string, extra: CsvRow = {}): CsvRow {
  return {
    umaAddress: `$${id.toLowerCase()}@sandbox.uma.money`, platformCustomerId: id, customerType: 'INDIVIDUAL', fullName: `Person ${id}`,
    birthDate: '1988-04-12', addressLine1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US', ...extra,
  };
}

export function businessRow(id: string, extra: CsvRow = {}): CsvRow {
  return {
    umaAddress: `$${id.toLowerCase()}@sandbox.uma.money`, platformCustomerId: id, customerType: 'BUSINESS', businessLegalName: `Company ${id} LLC`,
    addressLine1: '9 Market St', city: 'San Francisco', state: 'CA', postalCode: '94103', country: 'US', ...extra,
  };
}

export function uploadCsv(t: PlatformApi, csv: string | Buffer, options: { auth?: string; name?: string; headers?: Record<string, string> } = {}): Promise<HttpResult> {
  const bytes = typeof csv === 'string' ? Buffer.from(csv, 'utf8') : csv;
  return sendForm(t, 'POST', '/customers/bulk/csv', {}, [{ name: options.name ?? 'customers.csv', bytes }], { auth: options.auth, headers: options.headers });
}

/** Polls the job until it is COMPLETED or FAILED (bounded), and returns it. */
export async function finishedJob(t: PlatformApi, jobId: string, options: { auth?: string; timeoutMs?: number } = {}): Promise<any> {
  return eventually(
    async () => {
      const res = await t.call('GET', `/customers/bulk/jobs/${jobId}`, options.auth ? { auth: options.auth } : {});
      return ['COMPLETED', 'FAILED'].includes(res.body?.status) ? res.body : undefined;
    },
    { timeoutMs: options.timeoutMs ?? 30_000, intervalMs: 100, what: `job ${jobId} to finish` },
  );
}
