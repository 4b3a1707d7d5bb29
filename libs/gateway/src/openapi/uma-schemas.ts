import { UMA_ALLOW_LIST_STATUSES } from '@payments/contracts';

const minorUnits = (description: string) => ({ type: 'integer', minimum: 0, description });

/** Response schemas of UMA lookups, the UMA provider catalogue and crypto withdrawal fees (merged into RESPONSE_SCHEMAS). */
export const UMA_SCHEMAS = {
  UmaReceiverLookup: {
    type: 'object',
    required: ['receiverUmaAddress', 'supportedCurrencies', 'lookupId'],
    properties: {
      receiverUmaAddress: { type: 'string', description: 'The looked-up address, lower case.', examples: ['$success.usd@sandbox.uma.money'] },
      supportedCurrencies: {
        type: 'array',
        items: {
          type: 'object',
          required: ['currency', 'estimatedExchangeRate', 'min', 'max'],
          properties: {
            currency: { $ref: '#/components/schemas/QuoteCurrency' },
            estimatedExchangeRate: { type: 'number', exclusiveMinimum: 0, description: 'Units of this currency per unit of the sending currency (mid rate, before fees).' },
            min: minorUnits('Smallest amount, in this currency\'s smallest unit.'),
            max: minorUnits('Largest amount, in this currency\'s smallest unit.'),
          },
        },
      },
      requiredPayerDataFields: { type: 'array', items: { type: 'object', required: ['name', 'mandatory'], properties: { name: { type: 'string' }, mandatory: { type: 'boolean' } } } },
      lookupId: { type: 'string', pattern: '^Lookup:', description: 'Name it in a quote to this address.' },
    },
  },
  UmaProvider: {
    type: 'object',
    required: ['name', 'supportedRegions', 'domain', 'logoUrl', 'supportedCurrencies', 'lei', 'allowListStatus'],
    properties: {
      name: { type: 'string' },
      supportedRegions: { type: 'array', items: { type: 'string', pattern: '^[A-Z]{2}$' }, description: 'ISO 3166-1 alpha-2.' },
      domain: { type: 'string', format: 'hostname', description: 'The domain of its users\' UMA addresses.' },
      logoUrl: { type: 'string', format: 'uri' },
      supportedCurrencies: { type: 'array', items: { type: 'string' } },
      lei: { type: 'string', pattern: '^[A-Z0-9]{18}[0-9]{2}$', description: 'ISO 17442 Legal Entity Identifier.' },
      allowListStatus: { type: 'string', enum: [...UMA_ALLOW_LIST_STATUSES] },
    },
  },
  WithdrawalFeeEstimate: {
    type: 'object',
    required: ['networkFee', 'networkFeeAsset', 'applicationFee', 'totalFee', 'netAmount'],
    properties: {
      networkFee: minorUnits('The chain\'s fee, in the account currency\'s smallest unit.'),
      networkFeeAsset: { type: 'string', description: 'The asset the chain charges its fee in.', examples: ['ETH'] },
      applicationFee: minorUnits('The service\'s fee (0.1%, rounded up).'),
      totalFee: minorUnits('networkFee + applicationFee.'),
      netAmount: { type: 'integer', minimum: 1, description: 'amount − totalFee: what arrives.' },
    },
  },
} as const;
