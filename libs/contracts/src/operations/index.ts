import { ACCOUNT_OPERATIONS } from './accounts.operations';
import { AGENT_OPERATIONS } from './agents.operations';
import { CARD_OPERATIONS } from './cards.operations';
import { CUSTOMER_OPERATIONS } from './customers.operations';
import type { AnyHttpOperation } from './http-operation';
import { KYC_OPERATIONS } from './kyc.operations';
import { PAYMENT_OPERATIONS } from './payments.operations';
import { PLATFORM_OPERATIONS } from './platform.operations';
import { QUOTING_OPERATIONS } from './quoting.operations';
import { STABLECOIN_OPERATIONS } from './stablecoins.operations';
import { WALLET_AUTH_OPERATIONS } from './wallet-auth.operations';
import { WEBHOOK_DELIVERY_OPERATIONS } from './webhook-deliveries.operations';

export * from './http-operation';
export * from './file-parts';

/** Every public HTTP operation: the gateway serves exactly these, and the OpenAPI document lists exactly these. */
export const OPERATIONS: readonly AnyHttpOperation[] = [
  ...PLATFORM_OPERATIONS,
  ...WEBHOOK_DELIVERY_OPERATIONS,
  ...CUSTOMER_OPERATIONS,
  ...KYC_OPERATIONS,
  ...ACCOUNT_OPERATIONS,
  ...QUOTING_OPERATIONS,
  ...PAYMENT_OPERATIONS,
  ...WALLET_AUTH_OPERATIONS,
  ...CARD_OPERATIONS,
  ...AGENT_OPERATIONS,
  ...STABLECOIN_OPERATIONS,
];
export * from './operator';
