import { DOCUMENT_CONTENT_TYPES, DOCUMENT_SIDES, DOCUMENT_TYPES } from '@payments/contracts';

/** Response schemas of the document endpoints (merged into RESPONSE_SCHEMAS). */
export const DOCUMENT_SCHEMAS = {
  Document: {
    type: 'object',
    required: ['id', 'documentHolder', 'documentType', 'country', 'fileName', 'contentType', 'sizeBytes', 'sha256', 'createdAt', 'updatedAt'],
    properties: {
      id: { type: 'string', pattern: '^Document:' },
      documentHolder: { type: 'string', pattern: '^(Customer|BeneficialOwner):', description: 'The customer or beneficial owner the document belongs to.' },
      documentType: { type: 'string', enum: [...DOCUMENT_TYPES] },
      side: { type: 'string', enum: [...DOCUMENT_SIDES] },
      country: { type: 'string', description: 'ISO 3166-1 alpha-2 country that issued the document.' },
      documentNumber: { type: 'string' },
      issuingAuthority: { type: 'string' },
      fileName: { type: 'string', description: 'The name the file was uploaded with.' },
      contentType: { type: 'string', enum: [...DOCUMENT_CONTENT_TYPES], description: 'Recognised from the file content, not from its name.' },
      sizeBytes: { type: 'integer', minimum: 1 },
      sha256: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the file, hex.' },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
    },
  },
} as const satisfies Record<string, Record<string, unknown>>;
