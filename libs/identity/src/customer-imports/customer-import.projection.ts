import type { EntityManager } from 'typeorm';
import { assertNever, Projection } from '@payments/eventsourcing';
import { CustomerImportJobState } from './customer-import.decider';
import { CustomerImportJobEvent } from './customer-import.events';

/** The lifecycle columns of `customer_import_jobs`; the counters and the lease belong to the worker. */
export const projectCustomerImportJob: Projection<EntityManager, CustomerImportJobState, CustomerImportJobEvent> = async (tx, events) => {
  for (const event of events) {
    const jobId = event.streamId;
    switch (event.type) {
      case 'CustomerImportJobCreated.v1': {
        const d = event.data;
        await tx.query(
          `INSERT INTO customer_import_jobs (job_id, platform_id, mode, file_name, size_bytes, sha256, created_by, status, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, 'PENDING', $8, $8)`,
          [jobId, d.platformId, d.mode, d.fileName, d.sizeBytes, d.sha256, d.createdBy, d.createdAt],
        );
        break;
      }
      case 'CustomerImportJobStarted.v1':
        await tx.query(`UPDATE customer_import_jobs SET status = 'PROCESSING', total = $2, updated_at = $3 WHERE job_id = $1`, [jobId, event.data.total, event.data.startedAt]);
        break;
      case 'CustomerImportJobCompleted.v1':
        await tx.query(`UPDATE customer_import_jobs SET status = 'COMPLETED', completed_at = $2, updated_at = $2, lease_owner = NULL, lease_expires_at = NULL WHERE job_id = $1`, [jobId, event.data.completedAt]);
        break;
      case 'CustomerImportJobFailed.v1':
        await tx.query(
          `UPDATE customer_import_jobs SET status = 'FAILED', failure = $2, completed_at = $3, updated_at = $3, lease_owner = NULL, lease_expires_at = NULL WHERE job_id = $1`,
          [jobId, JSON.stringify(event.data.error), event.data.failedAt],
        );
        break;
      default:
        assertNever(event);
    }
  }
};
