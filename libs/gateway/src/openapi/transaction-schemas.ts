import { TRANSACTION_STATUSES } from '@payments/contracts';

const currencyAmount = { type: 'object', required: ['amount', 'currency'], properties: { amount: { type: 'integer', minimum: 0 }, currency: { $ref: '#/components/schemas/QuoteCurrency' } } };
const nullable = (schema: Record<string, unknown>) => ({ oneOf: [schema, { type: 'null' }] });
const side = (kind: 'source' | 'destination') => ({
  type: 'object',
  required: [`${kind}Type`],
  properties: {
    [`${kind}Type`]: { type: 'string', enum: kind === 'source' ? ['ACCOUNT', 'REALTIME_FUNDING', 'UMA_ADDRESS'] : ['ACCOUNT', 'UMA_ADDRESS'] },
    accountId: { type: 'string' },
    umaAddress: { type: 'string' },
    customerId: { type: 'string' },
    currency: { type: 'string' },
  },
});

const common = {
  id: { type: 'string', pattern: '^Transaction:' },
  status: { type: 'string', enum: [...TRANSACTION_STATUSES] },
  direction: { type: 'string', enum: ['CREDIT', 'DEBIT'] },
  customerId: nullable({ type: 'string' }),
  platformCustomerId: nullable({ type: 'string' }),
  source: side('source'),
  destination: side('destination'),
  sentAmount: currencyAmount,
  receivedAmount: currencyAmount,
  fees: { type: 'integer', minimum: 0, description: 'Sending currency smallest unit.' },
  exchangeRate: { type: 'number', description: 'Sending units per receiving unit; 1 for same-currency transfers.' },
  quoteId: nullable({ type: 'string' }),
  description: nullable({ type: 'string' }),
  reconciliationInstructions: { type: 'object', properties: { reference: { type: 'string' } } },
  failureReason: nullable({ type: 'string' }),
  refund: nullable({
    type: 'object',
    required: ['reference', 'initiatedAt', 'status'],
    properties: {
      reference: { type: 'string' },
      initiatedAt: { type: 'string', format: 'date-time' },
      status: { type: 'string', enum: ['PENDING', 'COMPLETED', 'FAILED'] },
      reason: { type: 'string', enum: ['TRANSACTION_FAILED', 'USER_CANCELLATION', 'TIMEOUT'] },
      settledAt: { type: 'string', format: 'date-time' },
    },
  }),
  unresolvedFunds: {
    type: 'object',
    description: 'Money that neither reached the receiver nor returned to the sender, parked in the ledger SUSPENSE account until an operator resolves it.',
    properties: { amount: { type: 'integer' }, currency: { $ref: '#/components/schemas/QuoteCurrency' }, ledgerPurpose: { const: 'SUSPENSE' } },
  },
  settledAt: nullable({ type: 'string', format: 'date-time' }),
  createdAt: { type: 'string', format: 'date-time' },
  updatedAt: { type: 'string', format: 'date-time' },
};
const required = ['id', 'status', 'type', 'direction', 'source', 'destination', 'sentAmount', 'receivedAmount', 'createdAt', 'updatedAt'];

/** Response schemas of transactions (merged into RESPONSE_SCHEMAS). */
export const TRANSACTION_SCHEMAS = {
  Transaction: {
    description: 'IncomingTransaction or OutgoingTransaction, discriminated by `type`.',
    oneOf: [{ $ref: '#/components/schemas/IncomingTransaction' }, { $ref: '#/components/schemas/OutgoingTransaction' }],
  },
  IncomingTransaction: { type: 'object', required, properties: { ...common, type: { const: 'INCOMING' } } },
  OutgoingTransaction: {
    type: 'object',
    required,
    properties: {
      ...common,
      type: { const: 'OUTGOING' },
      platformFees: { type: 'integer', minimum: 0 },
      paymentRail: nullable({ type: 'string' }),
      railSelectionMode: nullable({ type: 'string', enum: ['AUTO', 'MANUAL'] }),
      expectedSettlementAt: nullable({ type: 'string', format: 'date-time' }),
      settlementTimelineSeconds: nullable({ type: 'integer', minimum: 0 }),
      rateDetails: nullable({ $ref: '#/components/schemas/OutgoingRateDetails' }),
    },
  },
};
