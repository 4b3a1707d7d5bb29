import type { CustomerCsvUploadBody, CustomerImportJob, CustomerImportJobAccepted } from '../bulk-import.dto';
import { rpc } from './rpc-contract';

/**
 * RPC contracts of the bulk customer import (identity service). The upload carries the CSV as text inside the JSON
 * message; the 20 MB limit keeps a message well under the TCP transport's buffer bound.
 */
export const CustomerImportsRpc = {
  upload: rpc<CustomerCsvUploadBody, CustomerImportJobAccepted>('identity.customers.bulk.upload'),
  get: rpc<CustomerImportJobIdBody, CustomerImportJob>('identity.customers.bulk.get'),
} as const;

export interface CustomerImportJobIdBody {
  jobId: string;
}
