import type { AgentPolicy, UpdateAgentPolicyRequest } from '@payments/contracts';
import { DomainError } from '@payments/eventsourcing';

/** Checks what a policy must hold together: a threshold amount names its currency, rules name distinct accounts. */
export function validatePolicy(policy: AgentPolicy): AgentPolicy {
  const t = policy.approvalThresholds;
  if (t && t.amount !== undefined && t.amount !== null && !t.currency) throw new DomainError('INVALID_INPUT', 'approvalThresholds.currency is required with an amount', { errors: [{ field: 'policy.approvalThresholds.currency', message: 'required with amount' }] });
  const rules = policy.accountRestrictions?.accountRules ?? [];
  if (new Set(rules.map((r) => r.accountId)).size !== rules.length) throw new DomainError('INVALID_INPUT', 'accountRules name an account twice', { errors: [{ field: 'policy.accountRestrictions.accountRules', message: 'one rule per account' }] });
  return policy;
}

/**
 * A partial update: what is given replaces, field by field within spendingLimits (a limit set to null is removed);
 * `recast` converts the kept amount limits when the currency changes (the caller supplies the rate of the moment).
 */
export function patchPolicy(current: AgentPolicy, patch: UpdateAgentPolicyRequest, recast: (amount: number) => number): AgentPolicy {
  const limits = { ...current.spendingLimits };
  const p = patch.spendingLimits;
  if (p) {
    const currencyChanges = p.currency !== undefined && p.currency !== limits.currency;
    if (currencyChanges) {
      limits.perTransactionLimit = recast(limits.perTransactionLimit);
      if (typeof limits.dailyLimit === 'number') limits.dailyLimit = recast(limits.dailyLimit);
      if (typeof limits.monthlyLimit === 'number') limits.monthlyLimit = recast(limits.monthlyLimit);
      limits.currency = p.currency!;
    }
    if (p.perTransactionLimit !== undefined) limits.perTransactionLimit = p.perTransactionLimit;
    if (p.dailyLimit !== undefined) limits.dailyLimit = p.dailyLimit;
    if (p.dailyTransactionLimit !== undefined) limits.dailyTransactionLimit = p.dailyTransactionLimit;
    if (p.monthlyLimit !== undefined) limits.monthlyLimit = p.monthlyLimit;
  }
  return validatePolicy({
    permissions: patch.permissions ?? current.permissions,
    defaultExecutionMode: patch.defaultExecutionMode ?? current.defaultExecutionMode,
    spendingLimits: limits,
    ...(patch.accountRestrictions !== undefined || current.accountRestrictions ? { accountRestrictions: patch.accountRestrictions ?? current.accountRestrictions } : {}),
    ...(patch.approvalThresholds !== undefined || current.approvalThresholds ? { approvalThresholds: patch.approvalThresholds ?? current.approvalThresholds } : {}),
  });
}
