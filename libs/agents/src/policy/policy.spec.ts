import type { AgentPolicy } from '@payments/contracts';
import { accountAllowed, needsApproval, perTransactionLimitFor, requirePermission } from './policy';
import { patchPolicy } from './policy-patch';

const policy: AgentPolicy = {
  permissions: ['CREATE_QUOTES'],
  defaultExecutionMode: 'AUTO',
  spendingLimits: { currency: 'USD', perTransactionLimit: 1_000, dailyLimit: 5_000, monthlyLimit: null },
  accountRestrictions: { allowedAccountIds: ['A', 'B'], accountRules: [{ accountId: 'B', executionMode: 'APPROVAL_REQUIRED', perTransactionLimit: 200 }] },
  approvalThresholds: { currency: 'USD', amount: 800 },
};

describe('agent policy', () => {
  it('grants only the listed permissions', () => {
    expect(() => requirePermission(policy, 'CREATE_QUOTES')).not.toThrow();
    expect(() => requirePermission(policy, 'EXECUTE_QUOTES')).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
  });

  it('restricts accounts and applies per-account rules before the defaults', () => {
    expect([accountAllowed(policy, 'A'), accountAllowed(policy, 'C')]).toEqual([true, false]);
    expect(accountAllowed({ ...policy, accountRestrictions: { allowedAccountIds: null } }, 'C')).toBe(true);
    expect([perTransactionLimitFor(policy, 'A'), perTransactionLimitFor(policy, 'B')]).toEqual([1_000, 200]);
  });

  it('asks for approval by execution mode (the account rule, else the default) or above the threshold, not at it', () => {
    expect(needsApproval(policy, 'A', 800)).toBe(false);
    expect(needsApproval(policy, 'A', 801)).toBe(true);
    expect(needsApproval(policy, 'B', 1)).toBe(true);
    expect(needsApproval({ ...policy, defaultExecutionMode: 'APPROVAL_REQUIRED' }, 'A', 1)).toBe(true);
  });

  it('patches field by field; a new limits currency recasts the kept limits; null removes a limit', () => {
    const patched = patchPolicy(policy, { spendingLimits: { currency: 'EUR', dailyLimit: null } }, (amount) => amount * 2);
    expect(patched.spendingLimits).toEqual({ currency: 'EUR', perTransactionLimit: 2_000, dailyLimit: null, monthlyLimit: null });
    expect(patched.permissions).toEqual(['CREATE_QUOTES']);
    expect(patchPolicy(policy, { permissions: ['VIEW_TRANSACTIONS'] }, (a) => a).permissions).toEqual(['VIEW_TRANSACTIONS']);
    expect(() => patchPolicy(policy, { approvalThresholds: { amount: 5 } }, (a) => a)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});
