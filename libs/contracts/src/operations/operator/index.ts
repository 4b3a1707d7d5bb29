import type { AnyHttpOperation } from '../http-operation';
import { OPERATOR_CORE_OPERATIONS } from './operator-core.operations';
import { OPERATOR_RATES_OPERATIONS } from './operator-rates.operations';
import { OPERATOR_KYC_OPERATIONS } from './operator-kyc.operations';
import { OPERATOR_ACCOUNTS_OPERATIONS } from './operator-accounts.operations';
import { OPERATOR_FEES_OPERATIONS } from './operator-fees.operations';
import { OPERATOR_RAILS_OPERATIONS } from './operator-rails.operations';
import { OPERATOR_LEDGER_OPERATIONS } from './operator-ledger.operations';

/** The operator API's base path: its own routes and its own OpenAPI document (/operator/v1/openapi.json). */
export const OPERATOR_API_PREFIX = '/operator/v1';

/**
 * Every operation of the operator API (`auth: 'operator'`): the gateway serves exactly these under OPERATOR_API_PREFIX
 * and the operator OpenAPI document lists exactly these. Platform credentials never pass their guard.
 */
export const OPERATOR_OPERATIONS: readonly AnyHttpOperation[] = [
  ...OPERATOR_CORE_OPERATIONS,
  ...OPERATOR_RATES_OPERATIONS,
  ...OPERATOR_KYC_OPERATIONS,
  ...OPERATOR_ACCOUNTS_OPERATIONS,
  ...OPERATOR_FEES_OPERATIONS,
  ...OPERATOR_RAILS_OPERATIONS,
  ...OPERATOR_LEDGER_OPERATIONS,
];
