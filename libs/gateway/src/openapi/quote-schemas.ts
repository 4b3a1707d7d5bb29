import { QUOTE_STATUSES } from '@payments/contracts';

const currency = { $ref: '#/components/schemas/QuoteCurrency' };
const minorUnits = (description: string) => ({ type: 'integer', minimum: 0, description });

/** Response schemas of quotes and exchange rates (merged into RESPONSE_SCHEMAS). */
export const QUOTE_SCHEMAS = {
  QuoteCurrency: {
    type: 'object',
    required: ['code', 'name', 'symbol', 'decimals'],
    properties: { code: { type: 'string', examples: ['USD'] }, name: { type: 'string' }, symbol: { type: 'string' }, decimals: { type: 'integer', minimum: 0 } },
  },
  OutgoingRateDetails: {
    type: 'object',
    required: ['counterpartyMultiplier', 'counterpartyFixedFee', 'gridApiMultiplier', 'gridApiFixedFee', 'gridApiVariableFeeRate', 'gridApiVariableFeeAmount'],
    properties: {
      counterpartyMultiplier: { type: 'number', description: 'Receiving smallest units per mSAT.' },
      counterpartyFixedFee: minorUnits('Receiving currency smallest unit.'),
      gridApiMultiplier: { type: 'number', description: 'mSATs per sending smallest unit, after variable fees.' },
      gridApiFixedFee: minorUnits('Sending currency smallest unit.'),
      gridApiVariableFeeRate: { type: 'number', minimum: 0, description: 'Percent of the sending amount.' },
      gridApiVariableFeeAmount: minorUnits('Sending currency smallest unit.'),
    },
  },
  Quote: {
    type: 'object',
    required: ['id', 'status', 'createdAt', 'expiresAt', 'source', 'destination', 'sendingCurrency', 'receivingCurrency', 'totalSendingAmount', 'totalReceivingAmount', 'exchangeRate', 'feesIncluded', 'transactionId'],
    properties: {
      id: { type: 'string', pattern: '^Quote:' },
      status: { type: 'string', enum: [...QUOTE_STATUSES] },
      createdAt: { type: 'string', format: 'date-time' },
      expiresAt: { type: 'string', format: 'date-time', description: 'The locked rate and fees hold until then; an unexecuted quote turns EXPIRED.' },
      source: {
        oneOf: [
          { type: 'object', required: ['sourceType', 'accountId'], properties: { sourceType: { const: 'ACCOUNT' }, accountId: { type: 'string' } } },
          { type: 'object', required: ['sourceType', 'customerId', 'currency'], properties: { sourceType: { const: 'REALTIME_FUNDING' }, customerId: { type: 'string' }, currency: { type: 'string' } } },
        ],
      },
      destination: {
        oneOf: [
          { type: 'object', required: ['destinationType', 'accountId'], properties: { destinationType: { const: 'ACCOUNT' }, accountId: { type: 'string' }, paymentRail: { type: 'string' } } },
          { type: 'object', required: ['destinationType', 'umaAddress', 'currency'], properties: { destinationType: { const: 'UMA_ADDRESS' }, umaAddress: { type: 'string' }, currency: { type: 'string' } } },
        ],
      },
      sendingCurrency: currency,
      receivingCurrency: currency,
      totalSendingAmount: { type: 'integer', minimum: 1, description: 'Sending currency smallest unit, fees included.' },
      totalReceivingAmount: { type: 'integer', minimum: 1, description: 'Receiving currency smallest unit.' },
      exchangeRate: { type: 'number', exclusiveMinimum: 0, description: 'Sending currency units per receiving currency unit.' },
      feesIncluded: minorUnits('Sending currency smallest unit.'),
      platformFeesIncluded: minorUnits('The part of feesIncluded the platform collects.'),
      transactionId: { type: 'string', pattern: '^Transaction:', description: 'Reserved at creation: the transaction an execution creates.' },
      rateDetails: { $ref: '#/components/schemas/OutgoingRateDetails' },
      description: { type: 'string' },
      paymentInstructions: {
        type: 'array',
        description: 'REALTIME_FUNDING quotes: where to pay in (include the reference); withheld while PENDING_AUTHORIZATION.',
        items: { type: 'object', required: ['accountOrWalletInfo'], properties: { accountOrWalletInfo: { type: 'object', required: ['accountType'] }, instructionsNotes: { type: 'string' }, isPlatformAccount: { type: 'boolean' } } },
      },
      scaChallenge: { $ref: '#/components/schemas/ScaChallenge' },
    },
  },
  ScaChallenge: {
    type: 'object',
    description: 'Present only while the quote is PENDING_AUTHORIZATION.',
    required: ['id', 'expiresAt', 'factor', 'availableFactors'],
    properties: {
      id: { type: 'string', pattern: '^ScaChallenge:' },
      expiresAt: { type: 'string', format: 'date-time' },
      factor: { type: 'string', enum: ['SMS_OTP', 'TOTP', 'PASSKEY'] },
      availableFactors: { type: 'array', items: { type: 'string', enum: ['SMS_OTP', 'TOTP', 'PASSKEY'] } },
      purpose: { type: ['string', 'null'], description: 'CURRENCY_CONVERSION or PAYOUT (informational).' },
      passkeyAssertionOptions: { type: ['object', 'null'], description: 'WebAuthn PublicKeyCredentialRequestOptionsJSON (PASSKEY only).' },
      passkeyAllowedOrigins: { type: ['array', 'null'], items: { type: 'string' } },
    },
  },
  ExchangeRate: {
    type: 'object',
    description: 'The published ExchangeRate (sendingAmount priced exactly as a SENDING quote of that amount), plus this service\'s mid rate and fee breakdown.',
    required: [
      'sourceCurrency', 'destinationCurrency', 'destinationPaymentRail', 'minSendingAmount', 'maxSendingAmount', 'sendingAmount', 'receivingAmount', 'exchangeRate', 'fees', 'updatedAt',
      'rate', 'inverseRate', 'variableFeeRate', 'fixedFee', 'platformVariableFeeRate', 'platformFixedFee', 'counterpartyFixedFee', 'expiresAt',
    ],
    properties: {
      sourceCurrency: currency,
      destinationCurrency: currency,
      sendingAmount: minorUnits('The request\'s sendingAmount (10000 by default), source currency smallest unit.'),
      minSendingAmount: minorUnits('The platform\'s minAmount of the source currency; 0 when it does not configure the currency.'),
      maxSendingAmount: minorUnits('The platform\'s maxAmount of the source currency; 0 when it does not configure the currency.'),
      destinationPaymentRail: { type: 'string', description: 'The rail a payout in the destination currency normally takes (a PaymentRail; for crypto, its network: LIGHTNING, SOLANA, TRON).' },
      receivingAmount: minorUnits('totalReceivingAmount of a SENDING quote of sendingAmount, destination currency smallest unit; 0 when sendingAmount does not cover the fees.'),
      exchangeRate: { type: 'number', exclusiveMinimum: 0, description: 'Sending currency units per receiving currency unit, as the quote\'s (the inverse mid rate when nothing is received).' },
      fees: {
        type: 'object',
        required: ['fixed', 'total'],
        properties: {
          fixed: minorUnits('Fixed fees (service and platform), source currency smallest unit.'),
          total: minorUnits('All fees a quote of sendingAmount includes (feesIncluded), source currency smallest unit.'),
        },
      },
      updatedAt: { type: 'string', format: 'date-time', description: 'When the rate was last refreshed: the start of its 5-minute window.' },
      rate: { type: 'number', description: 'Destination units per source unit (mid rate, before fees).' },
      inverseRate: { type: 'number', description: 'Source units per destination unit.' },
      variableFeeRate: { type: 'number', description: 'Percent of the sending amount, platform fees included.' },
      fixedFee: minorUnits('Source currency smallest unit, platform fees included.'),
      platformVariableFeeRate: { type: 'number', description: 'The platform\'s share of variableFeeRate.' },
      platformFixedFee: minorUnits('The platform\'s share of fixedFee.'),
      counterpartyFixedFee: minorUnits('Destination currency smallest unit.'),
      expiresAt: { type: 'string', format: 'date-time', description: 'End of the 5-minute rate window.' },
    },
  },
  ExchangeRateList: {
    type: 'object',
    required: ['data'],
    properties: { data: { type: 'array', items: { $ref: '#/components/schemas/ExchangeRate' } } },
  },
} as const;
