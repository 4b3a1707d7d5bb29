import { ADDRESS_SCHEMA as address } from './customer-schemas';
import { BENEFICIAL_OWNER_ID_TYPES, BENEFICIAL_OWNER_ROLES, KYC_STATUSES, VERIFICATION_ERROR_TYPES, VERIFICATION_STATUSES } from '@payments/contracts';


/** Response schemas of the verification and beneficial-owner endpoints (merged into RESPONSE_SCHEMAS). */
export const VERIFICATION_SCHEMAS = {
  Verification: {
    type: 'object',
    required: ['id', 'customerId', 'verificationStatus', 'errors', 'createdAt', 'updatedAt'],
    properties: {
      id: { type: 'string', pattern: '^Verification:' },
      customerId: { type: 'string', pattern: '^Customer:' },
      verificationStatus: { type: 'string', enum: [...VERIFICATION_STATUSES] },
      errors: {
        type: 'array',
        description: 'RESOLVE_ERRORS: what to fix before submitting again. REJECTED: why.',
        items: {
          type: 'object',
          required: ['resourceId', 'type', 'reason'],
          properties: {
            resourceId: { type: 'string', description: 'The customer or beneficial owner to fix.' },
            type: { type: 'string', enum: [...VERIFICATION_ERROR_TYPES] },
            field: { type: 'string', description: 'Dot path of the missing or invalid field, e.g. edd.purposeOfAccount.' },
            acceptedDocumentTypes: { type: 'array', items: { type: 'string' }, description: 'For a missing document: the types that satisfy it.' },
            reason: { type: 'string' },
          },
        },
      },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
    },
  },
  BeneficialOwner: {
    type: 'object',
    required: ['id', 'customerId', 'roles', 'ownershipPercentage', 'personalInfo', 'kycStatus', 'createdAt', 'updatedAt'],
    properties: {
      id: { type: 'string', pattern: '^BeneficialOwner:' },
      customerId: { type: 'string', pattern: '^Customer:' },
      roles: { type: 'array', items: { type: 'string', enum: [...BENEFICIAL_OWNER_ROLES] } },
      ownershipPercentage: { type: 'integer', minimum: 0, maximum: 100 },
      personalInfo: {
        type: 'object',
        required: ['firstName', 'lastName', 'birthDate', 'nationality', 'address', 'idType', 'identifierLast4'],
        properties: {
          firstName: { type: 'string' },
          middleName: { type: 'string' },
          lastName: { type: 'string' },
          birthDate: { type: 'string', format: 'date' },
          nationality: { type: 'string', description: 'ISO 3166-1 alpha-2' },
          email: { type: 'string', format: 'email' },
          phoneNumber: { type: 'string', description: 'E.164' },
          address,
          idType: { type: 'string', enum: [...BENEFICIAL_OWNER_ID_TYPES] },
          identifierLast4: { type: 'string', description: 'The identifier is write-only; only its last four characters come back.' },
          countryOfIssuance: { type: 'string', description: 'ISO 3166-1 alpha-2' },
        },
      },
      kycStatus: { type: 'string', enum: [...KYC_STATUSES], description: 'PENDING until the business is decided; then by the owner’s own check.' },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
    },
  },
} as const satisfies Record<string, Record<string, unknown>>;
