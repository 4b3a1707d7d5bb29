/**
 * Test data of the accounts service for other projects' tests (e2e through the gateway): one passing account and
 * one failing change per rule for every accountType. Not part of the runtime API (`@payments/accounts/testing`).
 */
export { applyPatch, isChecksumCase, ROW_CASES } from './external-accounts/rules/table/test-cases/test-row-cases';
export type { InvalidCase, RowCases } from './external-accounts/rules/table/test-cases/test-row-cases';
