import { INTERNAL_ACCOUNT_STATUSES, INTERNAL_ACCOUNT_TYPES } from '@payments/contracts';

const amount = {
  type: 'object',
  required: ['amount', 'currency'],
  properties: {
    amount: { type: 'integer', description: 'In the smallest unit of the currency.' },
    currency: { type: 'object', required: ['code', 'name', 'symbol', 'decimals'], properties: { code: { type: 'string' }, name: { type: 'string' }, symbol: { type: 'string' }, decimals: { type: 'integer' } } },
  },
};

/** Response schemas of the accounts endpoints (merged into RESPONSE_SCHEMAS). */
export const ACCOUNT_SCHEMAS = {
  InternalAccount: {
    type: 'object',
    required: ['id', 'type', 'status', 'balance', 'totalBalance', 'fundingPaymentInstructions', 'createdAt', 'updatedAt'],
    properties: {
      id: { type: 'string', pattern: '^InternalAccount:' },
      customerId: { type: 'string', description: 'Absent for platform accounts.' },
      type: { type: 'string', enum: [...INTERNAL_ACCOUNT_TYPES] },
      status: { type: 'string', enum: [...INTERNAL_ACCOUNT_STATUSES] },
      balance: { ...amount, description: 'Available: total minus held funds.' },
      totalBalance: { ...amount, description: 'Including held funds.' },
      fundingPaymentInstructions: { type: 'array', items: { type: 'object' } },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
    },
  },
  InternalAccountList: {
    type: 'object',
    required: ['data'],
    properties: { data: { type: 'array', items: { $ref: '#/components/schemas/InternalAccount' } } },
  },
} as const;
