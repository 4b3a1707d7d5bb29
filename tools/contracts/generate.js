// Writes the contract files derived from TypeScript types (`npm run contracts:generate`). Every output is an entry
// of OUTPUTS: the file it writes (relative to the repository root) and build(), which returns the JSON value. Add a
// generated file by appending an entry; generated.spec.ts (libs/contracts) rebuilds every entry and fails when a
// committed file is stale. Output is stable: object keys sorted at every level, 2-space JSON, trailing newline.
const fs = require('node:fs');
const path = require('node:path');
const { typeSchemas } = require('./type-schemas');

const ROOT = path.resolve(__dirname, '../..');
const CONTRACTS_ENTRY = path.join(ROOT, 'libs/contracts/src/index.ts');
const TSCONFIG = path.join(ROOT, 'tsconfig.json');

/**
 * Every type the public API answers with, by the name the OpenAPI document gives it (`ApiOperationSpec` `ok` and
 * `{ page }` names, and the shared `Error` body). Each is an exported type of libs/contracts; the types they
 * reference come along under their own names.
 */
const RESPONSE_TYPES = [
  'Agent',
  'AgentAction',
  'AgentCreateResponse',
  'AgentDeviceCode',
  'AgentDeviceCodeRedeemResponse',
  'AgentDeviceCodeStatus',
  'AgentAccessToken',
  'ApiToken',
  'AuthCredentialChallenge',
  'AuthCredentialList',
  'AuthMethodResponse',
  'AuthSession',
  'AuthSignedRequestChallenge',
  'InternalAccountExportResponse',
  'SessionList',
  'SignedRequestChallenge',
  'BeneficialOwner',
  'Card',
  'CardRevealResponse',
  'CardTransaction',
  'DelegatedKey',
  'DelegatedKeyList',
  'SandboxCardSimulationResponse',
  'ContactCodeSent',
  'Customer',
  'CustomerImportJob',
  'CustomerImportJobAccepted',
  'Discovery',
  'DiscoveryList',
  'Document',
  'EndUserTerms',
  'Error',
  'ExchangeRate',
  'ExchangeRateList',
  'ExternalAccount',
  'FieldConstraint',
  'FieldError',
  'IncomingTransaction',
  'InternalAccount',
  'InternalAccountList',
  'KycLink',
  'OutgoingRateDetails',
  'OutgoingTransaction',
  'PlatformConfig',
  'PlatformCurrencyConfig',
  'Quote',
  'QuoteCurrency',
  'ReceiverLookup',
  'ScaChallenge',
  'ScaPasskey',
  'ScaPasskeyRegistrationOptions',
  'Stablecoin',
  'StablecoinOperation',
  'StablecoinProviderAccount',
  'Transaction',
  'UmaInvitation',
  'UmaProvider',
  'UmaReceiverLookup',
  'UntrustChallenge',
  'UntrustConfirmed',
  'Verification',
  'WebhookTestResult',
  // Webhook deliveries (not in the published API).
  'WebhookDelivery',
  'WebhookDeliveryDetail',
  'WebhookRedeliveryResult',
  'WithdrawalFeeEstimate',
  // A transaction's ledger postings (not in the published API).
  'TransactionLedger',
  // The operator API (/operator/v1): operators, platforms, the audit log.
  'AuditEvent',
  'OperatorPlatformView',
  'OperatorView',
  // The operator API: KYC/KYB reviews.
  'KycReview',
  // The operator API: external account verification.
  'AccountVerificationMethodList',
  'AccountVerificationMethodView',
  'ExternalAccountReview',
  // The operator API: rates.
  'OperatorRateEntry',
  'OperatorRateList',
  'QuotePricing',
  // The operator API: fees.
  'NetworkFeeSchedule',
  'NetworkFeeScheduleVersion',
  'ServiceFeeSchedule',
  'ServiceFeeScheduleVersion',
  // The operator API: production rails.
  'RailConnectorList',
  'RailExceptionView',
  'RailFileDetail',
  'RailFileView',
  'RailImportResult',
  'RailPaymentDetail',
  // The operator API: the ledger check history.
  'LedgerCheckRunView',
];

/** @type {{ file: string, build: () => unknown }[]} */
const OUTPUTS = [
  {
    file: 'libs/contracts/src/generated/response-schemas.json',
    build: () => typeSchemas({ path: CONTRACTS_ENTRY, tsconfig: TSCONFIG, types: RESPONSE_TYPES, refPrefix: '#/components/schemas/' }),
  },
  // docs/events/: a JSON Schema per public event and the AsyncAPI document (tools/contracts/event-outputs.js).
  ...require('./event-outputs').EVENT_OUTPUTS,
];

/** Object keys sorted at every level (array order kept), so the same types always give the same bytes. */
function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys(value[key])]),
  );
}

/** The exact bytes of an output file. */
function render(value) {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

/** Builds every output; returns `{ file, absolute, content }` without writing anything. */
function generate(outputs = OUTPUTS) {
  return outputs.map(({ file, build }) => ({ file, absolute: path.join(ROOT, file), content: render(build()) }));
}

function main() {
  for (const { file, absolute, content } of generate()) {
    const before = fs.existsSync(absolute) ? fs.readFileSync(absolute, 'utf8') : undefined;
    if (before === content) {
      console.log(`unchanged ${file}`);
      continue;
    }
    fs.mkdirSync(path.dirname(absolute), { recursive: true });
    fs.writeFileSync(absolute, content);
    console.log(`wrote ${file}`);
  }
}

module.exports = { OUTPUTS, RESPONSE_TYPES, ROOT, generate, render, sortKeys };

if (require.main === module) main();
