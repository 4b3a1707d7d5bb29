import { AssignRailCreditRequest, ImportRailFileFields, ListRailExceptionsQuery, ListRailFilesQuery, RAIL_IMPORT_SIZE_MAX_BYTES, ResolveRailExceptionRequest, ReturnRailCreditRequest } from '../../operator/rails.dto';
import { RailsOperatorRpc } from '../../operator/rails.rpc';
import { operation } from '../http-operation';

const TAG = 'Rails';

/** How a rail file is served: NACHA files are text, ISO 20022 files XML; anything else as bytes. */
export const RAIL_FILE_CONTENT_TYPES = ['text/plain', 'application/xml', 'application/octet-stream'] as const;

/** The operations side of the production rail connectors (payments service; docs/rails.md). */
export const OPERATOR_RAILS_OPERATIONS = [
  operation({
    operationId: 'listRailConnectors',
    method: 'GET',
    path: '/rails/connectors',
    tag: TAG,
    summary: 'The configured rail connectors with their routes, capabilities and what they hold',
    description:
      'Each connector of RAILS_CONFIG_FILE with its routes and declared capabilities, the payments waiting to be filed or sent ' +
      '(SUBMITTED) and waiting for the rail (FILED or SENT), its open exceptions and when it last wrote an outbound file. An ' +
      'empty list: this deployment has no production rail (production transfers answer 501).',
    permission: 'VIEW',
    auth: 'operator',
    operatorRole: 'VIEWER',
    service: 'payments',
    rpc: RailsOperatorRpc.connectors,
    status: 200,
    response: 'RailConnectorList',
    request: () => ({}),
  }),
  operation({
    operationId: 'listRailFiles',
    method: 'GET',
    path: '/rails/files',
    tag: TAG,
    summary: 'Files written (OUTBOUND) and imported (INBOUND), newest first',
    description: 'Filters narrow: connectorId, direction, status.',
    permission: 'VIEW',
    auth: 'operator',
    operatorRole: 'VIEWER',
    service: 'payments',
    rpc: RailsOperatorRpc.listFiles,
    query: ListRailFilesQuery,
    status: 200,
    response: { page: 'RailFileView' },
    request: ({ query }) => query,
  }),
  operation({
    operationId: 'getRailFile',
    method: 'GET',
    path: '/rails/files/{fileId}',
    tag: TAG,
    summary: 'A rail file with what it holds',
    description:
      'OUTBOUND: the payments in it, in file order, each with its rail reference (trace number, end-to-end id) and status. ' +
      'INBOUND: the outcomes it recorded (`source` is the file id) and the exceptions it raised.',
    permission: 'VIEW',
    auth: 'operator',
    operatorRole: 'VIEWER',
    service: 'payments',
    rpc: RailsOperatorRpc.getFile,
    status: 200,
    response: 'RailFileDetail',
    request: ({ params }) => ({ fileId: params.fileId }),
  }),
  operation({
    operationId: 'getRailFileContent',
    method: 'GET',
    path: '/rails/files/{fileId}/content',
    tag: TAG,
    summary: 'The bytes of a rail file, as written or imported',
    description:
      'As an attachment: NACHA files as text/plain, ISO 20022 files as application/xml. REVIEWER: the files hold account numbers; ' +
      'each download is recorded in the audit log (`rails.download-file`). A file whose bytes its connector cannot read back (still ' +
      'WRITING, removed from the outbox or inbox, or a connector no longer configured) is 404 `FILE_CONTENT_UNAVAILABLE`.',
    permission: 'VIEW',
    auth: 'operator',
    operatorRole: 'REVIEWER',
    service: 'payments',
    rpc: RailsOperatorRpc.fileContent,
    status: 200,
    fileResponse: { contentTypes: RAIL_FILE_CONTENT_TYPES, description: 'The file, with its name in Content-Disposition.' },
    request: ({ params }) => ({ fileId: params.fileId }),
  }),
  operation({
    operationId: 'getRailPayment',
    method: 'GET',
    path: '/rails/payments/{paymentId}',
    tag: TAG,
    summary: 'A payment handed to a rail, with its outcomes and the file it is in',
    description: 'By transaction id (`Transaction:…`) or `Prenote:<externalAccountId>`; a payment never handed to a production rail is 404.',
    permission: 'VIEW',
    auth: 'operator',
    operatorRole: 'VIEWER',
    service: 'payments',
    rpc: RailsOperatorRpc.getPayment,
    status: 200,
    response: 'RailPaymentDetail',
    request: ({ params }) => ({ paymentId: params.paymentId }),
  }),
  operation({
    operationId: 'importRailFile',
    method: 'POST',
    path: '/rails/imports',
    tag: TAG,
    summary: 'Import a return or status file (NACHA returns, pain.002, camt.054)',
    description:
      'multipart/form-data with the file in the part `file` and, optionally, the text field `connectorId` (needed only when several ' +
      'connectors read the format). The file is imported once, by its SHA-256: the same bytes again answer the first import with ' +
      '`duplicate: true` and change nothing (the status is 200 either way). A malformed file, or one no configured connector reads, ' +
      'is 400 and records nothing. Each outcome is applied to its transaction once; entries that match no payment become exceptions ' +
      '(GET /rails/exceptions). Audited (`rails.import`).',
    permission: 'MANAGE',
    auth: 'operator',
    operatorRole: 'ADMIN',
    service: 'payments',
    rpc: RailsOperatorRpc.importFile,
    multipart: {
      fields: ImportRailFileFields,
      file: { required: true, description: 'The return or status file as the bank sent it.', maxBytes: RAIL_IMPORT_SIZE_MAX_BYTES, maxFields: 1 },
    },
    status: 200,
    response: 'RailImportResult',
    request: ({ body, file }) => ({ ...(body?.connectorId ? { connectorId: body.connectorId } : {}), fileName: file!.originalName, base64: file!.buffer.toString('base64') }),
  }),
  operation({
    operationId: 'listRailExceptions',
    method: 'GET',
    path: '/rails/exceptions',
    tag: TAG,
    summary: 'Rail exceptions, oldest first',
    description:
      'Entries of imported files that match no payment, notifications of change, returns the ledger could not reverse, contradictory ' +
      'news, credits matching no account. Filters narrow: status (OPEN or RESOLVED), connectorId, kind.',
    permission: 'VIEW',
    auth: 'operator',
    operatorRole: 'VIEWER',
    service: 'payments',
    rpc: RailsOperatorRpc.listExceptions,
    query: ListRailExceptionsQuery,
    status: 200,
    response: { page: 'RailExceptionView' },
    request: ({ query }) => query,
  }),
  operation({
    operationId: 'resolveRailException',
    method: 'POST',
    path: '/rails/exceptions/{exceptionId}/resolve',
    tag: TAG,
    summary: 'Resolve an exception, saying what was done about it',
    description:
      'Marks it RESOLVED with the operator and the time; the resolution and the audit record (`rails.exception.resolve`) commit ' +
      'together. Resolving changes no payment and no balance: whatever the exception called for (a manual ledger adjustment, a ' +
      'call to the bank) is done first. A resolved exception is 409 `RAIL_EXCEPTION_ALREADY_RESOLVED`; an unknown one 404.',
    permission: 'MANAGE',
    auth: 'operator',
    operatorRole: 'REVIEWER',
    service: 'payments',
    rpc: RailsOperatorRpc.resolveException,
    body: ResolveRailExceptionRequest,
    status: 200,
    response: 'RailExceptionView',
    request: ({ params, body }) => ({ exceptionId: params.exceptionId, resolution: body.resolution }),
  }),
  operation({
    operationId: 'assignRailCredit',
    method: 'POST',
    path: '/rails/exceptions/{exceptionId}/assign',
    tag: TAG,
    summary: 'Credit an unmatched incoming credit to an internal account',
    description:
      'An open UNMATCHED_CREDIT (money that arrived naming no account) is credited to the production internal account ' +
      '`internalAccountId` (any platform\'s; in the credit\'s currency): one INCOMING transaction, COMPLETED, with its webhooks, the ' +
      'money moved from CLEARING. The exception is RESOLVED with disposition ASSIGNED, the transaction id and the reason, and ' +
      'audited (`rails.exception.assign`) in the same database transaction. Credited once per bank entry: an entry credited ' +
      'meanwhile (its statement imported again with the reference) answers that transaction. 409 ' +
      '`RAIL_EXCEPTION_ALREADY_RESOLVED` when it is resolved already; 400 when it is no unmatched credit or the account is ' +
      'not a production account in its currency; 404 for an unknown exception.',
    permission: 'MANAGE',
    auth: 'operator',
    operatorRole: 'REVIEWER',
    service: 'payments',
    rpc: RailsOperatorRpc.assignCredit,
    body: AssignRailCreditRequest,
    status: 200,
    response: 'RailExceptionView',
    request: ({ params, body }) => ({ exceptionId: params.exceptionId, internalAccountId: body.internalAccountId, reason: body.reason }),
  }),
  operation({
    operationId: 'returnRailCredit',
    method: 'POST',
    path: '/rails/exceptions/{exceptionId}/return',
    tag: TAG,
    summary: 'Mark an unmatched incoming credit to be returned to its sender',
    description:
      'An open UNMATCHED_CREDIT is RESOLVED with disposition TO_BE_RETURNED and the reason, audited (`rails.exception.return`). ' +
      'Nothing moves on the ledger (the money was never credited): the operator returns it at the bank (a SEPA return or an ' +
      'ACH R-return of the entry, docs/runbooks/rails-unmatched-entry.md). 409 `RAIL_EXCEPTION_ALREADY_RESOLVED` when it is ' +
      'resolved already; 400 when it is no unmatched credit; 404 for an unknown exception.',
    permission: 'MANAGE',
    auth: 'operator',
    operatorRole: 'REVIEWER',
    service: 'payments',
    rpc: RailsOperatorRpc.returnCredit,
    body: ReturnRailCreditRequest,
    status: 200,
    response: 'RailExceptionView',
    request: ({ params, body }) => ({ exceptionId: params.exceptionId, reason: body.reason }),
  }),
];
