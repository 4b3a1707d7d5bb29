/**
 * RPC patterns of the bulk customer import (identity service). The upload carries the CSV as text inside the JSON
 * message; the 20 MB limit keeps a message well under the TCP transport's buffer bound.
 */
export const CustomerImportsRpc = {
  upload: 'identity.customers.bulk.upload',
  get: 'identity.customers.bulk.get',
} as const;
