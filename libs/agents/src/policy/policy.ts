import type { AgentExecutionMode, AgentPermission, AgentPolicy } from '@payments/contracts';
import { DomainError } from '@payments/eventsourcing';

/** 403 FORBIDDEN unless the policy grants the permission. */
export function requirePermission(policy: AgentPolicy, permission: AgentPermission): void {
  if (!policy.permissions.includes(permission)) throw new DomainError('FORBIDDEN', `the agent's policy does not grant ${permission}`);
}

/** Whether the policy lets the agent use the account (allowedAccountIds null or absent: every account of the customer). */
export function accountAllowed(policy: AgentPolicy, accountId: string): boolean {
  const allowed = policy.accountRestrictions?.allowedAccountIds;
  return allowed === undefined || allowed === null || allowed.includes(accountId);
}

const ruleOf = (policy: AgentPolicy, accountId: string) => policy.accountRestrictions?.accountRules?.find((r) => r.accountId === accountId);

/** The per-transaction limit for an action from the account: its rule's, else the spending limits'. */
export function perTransactionLimitFor(policy: AgentPolicy, accountId: string): number {
  const rule = ruleOf(policy, accountId)?.perTransactionLimit;
  return rule === undefined || rule === null ? policy.spendingLimits.perTransactionLimit : rule;
}

export function executionModeFor(policy: AgentPolicy, accountId: string): AgentExecutionMode {
  return ruleOf(policy, accountId)?.executionMode ?? policy.defaultExecutionMode;
}

/**
 * Whether an action from `accountId` waits for the platform: the account's execution mode (its rule, else the
 * default) is APPROVAL_REQUIRED, or the amount (converted to the threshold's currency) is above the threshold.
 */
export function needsApproval(policy: AgentPolicy, accountId: string, amountInThresholdCurrency: number | undefined): boolean {
  if (executionModeFor(policy, accountId) === 'APPROVAL_REQUIRED') return true;
  const threshold = policy.approvalThresholds?.amount;
  return threshold !== undefined && threshold !== null && amountInThresholdCurrency !== undefined && amountInThresholdCurrency > threshold;
}

/** The agent permissions that move money: granting them (creating, widening or reconnecting such an agent) is itself a money act. */
export const MONEY_PERMISSIONS: readonly AgentPermission[] = ['CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES'];

/** The platform permissions a credential needs to hand an agent this policy: TRANSACT too when the agent may move money. */
export function platformPermissionsToGrant(policy: Pick<AgentPolicy, 'permissions'>): ('TRANSACT')[] {
  return (policy.permissions ?? []).some((p) => MONEY_PERMISSIONS.includes(p)) ? ['TRANSACT'] : [];
}
