import { MODES, PERMISSIONS, TRANSACTION_DIRECTIONS } from '@payments/contracts';
import { ACCOUNT_SCHEMAS } from './account-schemas';
import { EXTERNAL_ACCOUNT_SCHEMAS } from './external-account-schemas';
import { CUSTOMER_SCHEMAS } from './customer-schemas';
import { CUSTOMER_IMPORT_SCHEMAS } from './customer-import-schemas';
import { DISCOVERY_SCHEMAS } from './discovery-schemas';
import { DOCUMENT_SCHEMAS } from './document-schemas';
import { VERIFICATION_SCHEMAS } from './verification-schemas';
import { QUOTE_SCHEMAS } from './quote-schemas';
import { SCA_SCHEMAS } from './sca-schemas';
import { TRANSACTION_SCHEMAS } from './transaction-schemas';
import { WEBHOOK_SCHEMAS } from './webhook-schemas';
import { UMA_SCHEMAS } from './uma-schemas';
import { INVITATION_SCHEMAS } from './invitation-schemas';

/**
 * Hand-written JSON Schemas (draft 2020-12) for what the API returns. Responses are TypeScript interfaces in
 * libs/contracts, which leave no runtime metadata, so their shapes are spelled out here. They stay open (no
 * `additionalProperties: false`): a client must tolerate fields added later. Add an entry when a route returns
 * a new shape and reference it by name from `ApiOperationSpec({ ok: 'Name' })`.
 */
export const RESPONSE_SCHEMAS = {
  ...ACCOUNT_SCHEMAS,
  ...EXTERNAL_ACCOUNT_SCHEMAS,
  ...CUSTOMER_SCHEMAS,
  ...CUSTOMER_IMPORT_SCHEMAS,
  ...DOCUMENT_SCHEMAS,
  ...DISCOVERY_SCHEMAS,
  ...VERIFICATION_SCHEMAS,
  ...QUOTE_SCHEMAS,
  ...SCA_SCHEMAS,
  ...TRANSACTION_SCHEMAS,
  ...WEBHOOK_SCHEMAS,
  ...UMA_SCHEMAS,
  ...INVITATION_SCHEMAS,
  Error: {
    type: 'object',
    description: 'The body of every non-2xx response.',
    required: ['status', 'code', 'message'],
    properties: {
      status: { type: 'integer', description: 'The HTTP status, repeated.' },
      code: { type: 'string', description: 'Stable machine-readable code, e.g. INVALID_INPUT.' },
      message: { type: 'string', description: 'Human-readable explanation; not meant for parsing.' },
      details: {
        type: 'object',
        description: 'Extra data; for INVALID_INPUT, `errors[]` with one entry per field.',
        properties: { errors: { type: 'array', items: { $ref: '#/components/schemas/FieldError' } } },
      },
    },
  },
  FieldError: {
    type: 'object',
    description: 'One invalid field of a 400 INVALID_INPUT.',
    required: ['field'],
    properties: {
      field: { type: 'string', description: 'Dot path of the field, e.g. `address.line1`.' },
      message: { type: 'string' },
      constraint: { $ref: '#/components/schemas/FieldConstraint' },
    },
  },
  FieldConstraint: {
    type: 'object',
    description:
      'The rule the field broke, with its parameter: `maxLength`/`minLength` (integers), `enum` (the allowed values), `pattern` ' +
      '(a JavaScript regular expression), `format` (e.g. `email`, `date`, `iso3166-1-alpha-2`). Any other rule appears under its ' +
      'own name, with its parameter or `true` (e.g. `{"isNotEmpty": true}`, `{"max": 100}`).',
    properties: {
      format: { type: 'string' },
      pattern: { type: 'string' },
      enum: { type: 'array', items: { type: 'string' } },
      minLength: { type: 'integer', minimum: 0 },
      maxLength: { type: 'integer', minimum: 0 },
    },
    additionalProperties: true,
  },
  PlatformConfig: {
    type: 'object',
    required: ['id', 'supportedCurrencies', 'feeConfigs', 'createdAt', 'updatedAt'],
    properties: {
      id: { type: 'string', pattern: '^PlatformConfig:', examples: ['PlatformConfig:019a0a4e-7c1e-7bb4-9d43-2f5d3b0f4b11'] },
      umaDomain: { type: 'string', format: 'hostname', description: 'The domain customer UMA addresses are generated at: the one set here, else in sandbox mode the sandbox domain (`sandbox.uma.money`); absent in production until set.' },
      webhookEndpoint: { type: 'string', format: 'uri' },
      webhookEndpointStatus: { type: 'string', enum: ['ACTIVE', 'DISABLED'], description: 'DISABLED after the endpoint answered 410 Gone; set the endpoint again to re-enable it.' },
      webhookPublicKey: { type: 'string', description: 'PEM (SPKI) P-256 public key that verifies the `X-Service-Signature` header of webhooks.' },
      webhookSecret: { type: 'string', description: 'Standard Webhooks secret (`whsec_…`) for the `webhook-signature` header; only shown to MANAGE credentials.' },
      supportedCurrencies: { type: 'array', items: { $ref: '#/components/schemas/PlatformCurrencyConfig' } },
      feeConfigs: {
        type: 'array',
        description: 'The platform\'s own fees on cross-currency transactions, added to quotes (`platformFeesIncluded`). PATCH upserts by (feeType, sourceCurrency); zero fees remove one; USD only (other currencies: 501).',
        items: {
          type: 'object',
          required: ['feeType', 'sourceCurrency', 'variableFeeBps', 'fixedFee'],
          properties: {
            feeType: { type: 'string', enum: ['CROSS_CURRENCY_TRANSACTION'] },
            sourceCurrency: { type: 'string', examples: ['USD'] },
            variableFeeBps: { type: 'integer', minimum: 0, maximum: 10000 },
            fixedFee: { type: 'object', required: ['amount', 'currency'], properties: { amount: { type: 'integer', minimum: 0 }, currency: { type: 'string' } } },
          },
        },
      },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
    },
  },
  PlatformCurrencyConfig: {
    type: 'object',
    required: ['currencyCode', 'minAmount', 'maxAmount', 'requiredCounterpartyFields', 'enabledTransactionTypes'],
    properties: {
      currencyCode: { type: 'string', examples: ['USD'] },
      minAmount: { type: 'integer', minimum: 0, description: 'In the smallest unit of the currency.' },
      maxAmount: { type: 'integer', minimum: 1, description: 'In the smallest unit of the currency.' },
      requiredCounterpartyFields: {
        type: 'array',
        items: {
          type: 'object',
          required: ['name', 'mandatory'],
          properties: { name: { type: 'string' }, mandatory: { type: 'boolean' } },
        },
      },
      enabledTransactionTypes: { type: 'array', items: { type: 'string', enum: [...TRANSACTION_DIRECTIONS] } },
    },
  },
  ApiToken: {
    type: 'object',
    required: ['id', 'name', 'permissions', 'mode', 'clientId', 'createdAt', 'updatedAt'],
    properties: {
      id: { type: 'string', pattern: '^Token:' },
      name: { type: 'string' },
      permissions: { type: 'array', items: { type: 'string', enum: [...PERMISSIONS] } },
      mode: { type: 'string', enum: [...MODES] },
      clientId: { type: 'string', description: 'The user name of HTTP Basic.' },
      clientSecret: { type: 'string', description: 'The password of HTTP Basic; only in the response to the creation, shown once.' },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
    },
  },
} as const satisfies Record<string, Record<string, unknown>>;

export type ResponseSchemaName = keyof typeof RESPONSE_SCHEMAS;
