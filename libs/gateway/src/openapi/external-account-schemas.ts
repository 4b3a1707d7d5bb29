import { BENEFICIARY_VERIFICATION_STATUSES, EXTERNAL_ACCOUNT_STATUSES } from '@payments/contracts';

/** Response schemas of external accounts and receiver lookups (merged into RESPONSE_SCHEMAS). */
export const EXTERNAL_ACCOUNT_SCHEMAS = {
  ExternalAccount: {
    type: 'object',
    required: ['id', 'status', 'currency', 'accountInfo', 'trustedBeneficiary', 'createdAt', 'updatedAt'],
    properties: {
      id: { type: 'string', pattern: '^ExternalAccount:' },
      customerId: { type: 'string', description: 'Absent for platform accounts.' },
      status: { type: 'string', enum: [...EXTERNAL_ACCOUNT_STATUSES], description: 'Only ACTIVE accounts can receive payments.' },
      currency: { type: 'string', examples: ['USD'] },
      platformAccountId: { type: 'string' },
      accountInfo: {
        type: 'object',
        required: ['accountType'],
        description: 'As created, discriminated by accountType; beneficiary.documentNumber is write-only. Every fiat account carries paymentRails, set by the service; a business beneficiary also carries the flat legalName, taxId and registrationNumber.',
        properties: { accountType: { type: 'string' }, paymentRails: { type: 'array', items: { type: 'string', enum: ['ACH', 'WIRE', 'RTP', 'FEDNOW', 'SPEI', 'PIX', 'SEPA', 'SEPA_INSTANT', 'FASTER_PAYMENTS', 'FAST', 'BANK_TRANSFER', 'MOBILE_MONEY', 'UPI', 'NEFT', 'RTGS', 'SWIFT'] } } },
      },
      beneficiaryVerificationStatus: { type: 'string', enum: [...BENEFICIARY_VERIFICATION_STATUSES], description: 'Absent for crypto wallets.' },
      trustedBeneficiary: { type: 'boolean', description: 'A trusted beneficiary cannot be deleted until it is untrusted.' },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
    },
  },
  UntrustChallenge: {
    type: 'object',
    required: ['externalAccountId', 'factor', 'expiresAt'],
    properties: {
      externalAccountId: { type: 'string', pattern: '^ExternalAccount:' },
      factor: { type: 'string', enum: ['SMS_OTP'] },
      expiresAt: { type: 'string', format: 'date-time' },
    },
  },
  ReceiverLookup: {
    type: 'object',
    required: ['supportedCurrencies', 'lookupId', 'accountId'],
    properties: {
      supportedCurrencies: {
        type: 'array',
        items: {
          type: 'object',
          required: ['currency', 'estimatedExchangeRate', 'min', 'max'],
          properties: {
            currency: { $ref: '#/components/schemas/QuoteCurrency' },
            estimatedExchangeRate: { type: 'number', exclusiveMinimum: 0, description: 'Units of this currency (the one the account receives) per unit of the sending currency; a quote locks the real rate.' },
            min: { type: 'integer', description: 'Smallest amount the account can receive, in the smallest unit of `currency`.' },
            max: { type: 'integer', description: 'Largest amount the account can receive, in the smallest unit of `currency`.' },
          },
        },
      },
      requiredPayerDataFields: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, mandatory: { type: 'boolean' } } } },
      lookupId: { type: 'string', pattern: '^Lookup:' },
      accountId: { type: 'string', pattern: '^ExternalAccount:' },
    },
  },
} as const;
