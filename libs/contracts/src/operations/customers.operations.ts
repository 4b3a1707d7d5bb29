import { CUSTOMER_CSV_SIZE_MAX_BYTES } from '../bulk-import.dto';
import { ConfirmContactRequest, CreateCustomerRequest, ListCustomersQuery, UpdateCustomerRequest } from '../customers';
import { CreateKycLinkRequest } from '../kyc-link.dto';
import { CustomerImportsRpc, CustomersRpc, KycLinksRpc } from '../rpc';
import { utf8Text } from './file-parts';
import { operation } from './http-operation';

const CSV_PART =
  'CSV in UTF-8 (a BOM is fine), at most 20 MB, header line first. Columns: umaAddress, platformCustomerId, customerType (all rows); ' +
  'fullName, birthDate, email (INDIVIDUAL); businessLegalName, businessRegistrationNumber, businessTaxId (BUSINESS); addressLine1, addressLine2, ' +
  'city, state, postalCode, country; platformAccountId, description. See docs/customers.md for the rules.';

const KYC_LINK =
  'The link (`kycUrl`) opens the hosted verification page once, for 24 hours; then the user is sent to `redirectUri` when one was given. ' +
  'It does not change kycStatus. 409 until every contact channel the customer must verify (email and phone in the EU/EEA) is VERIFIED. ' +
  'An Idempotency-Key replay returns the same link. Needs MANAGE.';

const contact = (channel: 'email' | 'phone', label: string) => [
  operation({
    operationId: `sendCustomer${label}Verification`,
    method: 'POST',
    path: `/customers/{customerId}/verify-${channel}`,
    tag: 'Contact Verification',
    summary: `Send or resend the ${channel === 'email' ? 'email' : 'SMS'} verification code (sandbox: 123456, nothing sent)`,
    permission: 'MANAGE',
    service: 'identity',
    rpc: CustomersRpc.sendContactCode,
    status: 204, // published: 204; the code's expiry is in docs/customers.md
    errors: [409, 423, 501],
    request: ({ params }) => ({ customerId: params.customerId, channel }),
  }),
  operation({
    operationId: `confirmCustomer${label}Verification`,
    method: 'POST',
    path: `/customers/{customerId}/verify-${channel}/confirm`,
    tag: 'Contact Verification',
    summary: `Confirm the ${channel === 'email' ? 'email' : 'SMS'} code; the ${channel} becomes VERIFIED`,
    permission: 'MANAGE',
    service: 'identity',
    rpc: CustomersRpc.confirmContactCode,
    body: ConfirmContactRequest,
    status: 200,
    response: 'Customer',
    errors: [409, 423],
    request: ({ params, body }) => ({ customerId: params.customerId, channel, code: body.code }),
  }),
];

/** Customers, their contact verification, hosted KYC links and CSV imports (identity service). */
export const CUSTOMER_OPERATIONS = [
  operation({
    operationId: 'createCustomer',
    method: 'POST',
    path: '/customers',
    tag: 'Customers',
    summary: 'Create a customer',
    permission: 'MANAGE',
    service: 'identity',
    rpc: CustomersRpc.create,
    body: CreateCustomerRequest,
    status: 201,
    response: 'Customer',
    request: ({ body }) => body,
  }),
  operation({
    operationId: 'listCustomers',
    method: 'GET',
    path: '/customers',
    tag: 'Customers',
    summary: 'List customers',
    permission: 'VIEW',
    service: 'identity',
    rpc: CustomersRpc.list,
    query: ListCustomersQuery,
    status: 200,
    response: { page: 'Customer' },
    request: ({ query }) => query,
  }),
  operation({
    operationId: 'getEndUserTerms',
    method: 'GET',
    path: '/customers/end-user-terms',
    tag: 'Customers',
    summary: 'Current end-user terms version and hosted URL',
    permission: 'VIEW',
    service: 'identity',
    rpc: CustomersRpc.endUserTerms,
    status: 200,
    response: 'EndUserTerms',
    request: () => ({}),
  }),
  operation({
    operationId: 'getCustomerById',
    method: 'GET',
    path: '/customers/{customerId}',
    tag: 'Customers',
    summary: 'Get a customer',
    permission: 'VIEW',
    service: 'identity',
    rpc: CustomersRpc.get,
    status: 200,
    response: 'Customer',
    request: ({ params }) => ({ customerId: params.customerId }),
  }),
  operation({
    operationId: 'updateCustomerById',
    method: 'PATCH',
    path: '/customers/{customerId}',
    tag: 'Customers',
    summary: 'Update a customer (only the fields sent)',
    permission: 'MANAGE',
    service: 'identity',
    rpc: CustomersRpc.update,
    body: UpdateCustomerRequest,
    status: 200,
    response: 'Customer',
    errors: [409, 424],
    signedRetry: { challenge: 'SignedRequestChallenge' },
    request: ({ params, body, signature }) => ({ customerId: params.customerId, patch: body, signature }),
  }),
  operation({
    operationId: 'deleteCustomerById',
    method: 'DELETE',
    path: '/customers/{customerId}',
    tag: 'Customers',
    summary: 'Delete a customer',
    description: 'Answers the customer as deleted (`isDeleted: true`). A second delete is 410; history stays in the event log.',
    permission: 'MANAGE',
    service: 'identity',
    rpc: CustomersRpc.delete,
    status: 200,
    response: 'Customer',
    errors: [410],
    request: ({ params }) => ({ customerId: params.customerId }),
  }),
  ...contact('email', 'Email'),
  ...contact('phone', 'Phone'),
  operation({
    operationId: 'createCustomerKycLink', shownOnce: ['kycUrl', 'token'],
    method: 'POST',
    path: '/customers/{customerId}/kyc-link',
    tag: 'KYC/KYB Verifications',
    summary: 'Create a single-use hosted KYC link',
    description: KYC_LINK,
    permission: 'MANAGE',
    service: 'identity',
    rpc: KycLinksRpc.create,
    body: CreateKycLinkRequest,
    bodyOptional: true,
    status: 201,
    response: 'KycLink',
    request: ({ params, body, origin }) => ({ ...body, customerId: params.customerId, publicOrigin: origin }),
  }),
  operation({
    operationId: 'uploadCustomersCsv',
    method: 'POST',
    path: '/customers/bulk/csv',
    tag: 'Customers',
    summary: 'Import customers from a CSV file (asynchronous)',
    description:
      'multipart/form-data with the CSV in the part `file`. A wrong header (unknown, repeated or missing column) is a 400 at once; the rows are ' +
      'processed in the background, each exactly as POST /customers would, and reported by GET /customers/bulk/jobs/{jobId}. Needs MANAGE.',
    permission: 'MANAGE',
    service: 'identity',
    rpc: CustomerImportsRpc.upload,
    multipart: { file: { required: true, description: CSV_PART, maxBytes: CUSTOMER_CSV_SIZE_MAX_BYTES, maxFields: 0 } },
    status: 202,
    response: 'CustomerImportJobAccepted',
    request: ({ file }) => ({ fileName: file!.originalName, csv: utf8Text(file!, 'a CSV file') }),
  }),
  operation({
    operationId: 'getBulkCustomerImportJob',
    method: 'GET',
    path: '/customers/bulk/jobs/{jobId}',
    tag: 'Customers',
    summary: 'Status, progress and per-row errors of a CSV import job',
    permission: 'VIEW',
    service: 'identity',
    rpc: CustomerImportsRpc.get,
    status: 200,
    response: 'CustomerImportJob',
    request: ({ params }) => ({ jobId: params.jobId }),
  }),
];
