/** RPC patterns of the customer endpoints (identity service). */
export const CustomersRpc = {
  create: 'identity.customers.create',
  list: 'identity.customers.list',
  get: 'identity.customers.get',
  update: 'identity.customers.update',
  delete: 'identity.customers.delete',
  endUserTerms: 'identity.customers.end-user-terms',
  sendContactCode: 'identity.customers.contact.send',
  confirmContactCode: 'identity.customers.contact.confirm',
} as const;
