import { CONTACT_CHANNEL_STATUSES, CUSTOMER_TYPES, KYC_STATUSES } from '@payments/contracts';

/** The postal address of customers and beneficial owners. */
export const ADDRESS_SCHEMA = {
  type: 'object',
  required: ['line1', 'city', 'postalCode', 'country'],
  properties: {
    line1: { type: 'string' },
    line2: { type: 'string' },
    city: { type: 'string' },
    state: { type: 'string' },
    postalCode: { type: 'string' },
    country: { type: 'string', description: 'ISO 3166-1 alpha-2' },
  },
};

/** Response schemas of the customer endpoints (merged into RESPONSE_SCHEMAS). */
export const CUSTOMER_SCHEMAS = {
  Customer: {
    type: 'object',
    required: ['id', 'platformCustomerId', 'customerType', 'umaAddress', 'currencies', 'createdAt', 'updatedAt'],
    properties: {
      id: { type: 'string', pattern: '^Customer:' },
      platformCustomerId: { type: 'string' },
      customerType: { type: 'string', enum: [...CUSTOMER_TYPES] },
      umaAddress: { type: 'string', examples: ['$alice@sandbox.uma.money'] },
      region: { type: 'string', description: 'ISO 3166-1 alpha-2' },
      currencies: { type: 'array', items: { type: 'string' } },
      email: { type: 'string', format: 'email' },
      phoneNumber: { type: 'string', description: 'E.164' },
      address: ADDRESS_SCHEMA,
      contactVerification: {
        type: 'object',
        description: 'Only the channels the customer region requires; absent when none is.',
        properties: { email: { type: 'string', enum: [...CONTACT_CHANNEL_STATUSES] }, phone: { type: 'string', enum: [...CONTACT_CHANNEL_STATUSES] } },
      },
      kycStatus: { type: 'string', enum: [...KYC_STATUSES], description: 'Individuals.' },
      kybStatus: { type: 'string', enum: [...KYC_STATUSES], description: 'Businesses.' },
      fullName: { type: 'string' },
      birthDate: { type: 'string', format: 'date' },
      nationality: { type: 'string' },
      identifierLast4: { type: 'string', description: 'The identifier is write-only; only its last four digits come back.' },
      businessInfo: { type: 'object' },
      isDeleted: { type: 'boolean' },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
    },
  },
  EndUserTerms: {
    type: 'object',
    required: ['version', 'url'],
    properties: { version: { type: 'string' }, url: { type: 'string', format: 'uri' } },
  },
  ContactCodeSent: {
    type: 'object',
    required: ['channel', 'status', 'expiresAt'],
    properties: { channel: { type: 'string', enum: ['email', 'phone'] }, status: { type: 'string', enum: ['PENDING'] }, expiresAt: { type: 'string', format: 'date-time' } },
  },
} as const;
