import type { Field, FormValues } from '../../components/action-form';
import { DataTable } from '../../components/data-table';
import { Amount, Entry, Id } from '../../components/format';
import { decimalsOf, minorToMajor } from '../../lib/money';
import { idList } from '../../lib/id-list';
import type { AgentPolicy, Agent } from '@payments/contracts';
export type { AgentPolicy, Agent };

export const AGENT_PERMISSIONS = ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS'] as const;
export const EXECUTION_MODES = ['AUTO', 'APPROVAL_REQUIRED'] as const;

const major = (amount: number | null | undefined, currency: string) => (amount === null || amount === undefined ? undefined : minorToMajor(amount, decimalsOf(currency)));

/**
 * The policy's fields (amounts in major units of `currency`, chosen outside the form), filled with `current` when the
 * policy is being changed. Empty daily or monthly limits mean no limit; empty allowed accounts, every account.
 */
export function policyFields(currency: string, current?: AgentPolicy): Field[] {
  const decimals = decimalsOf(currency);
  const limits = current?.spendingLimits;
  return [
    ...AGENT_PERMISSIONS.map((p) => ({ name: `perm_${p}`, label: `Permission ${p}`, type: 'checkbox' as const, defaultValue: String(current ? current.permissions.includes(p) : true) })),
    { name: 'defaultExecutionMode', label: 'Default execution mode', type: 'select', options: EXECUTION_MODES, required: true, defaultValue: current?.defaultExecutionMode ?? 'AUTO', hint: 'APPROVAL_REQUIRED: every action waits for your approval.' },
    { name: 'perTransactionLimit', label: `Limit per transaction (${currency})`, type: 'amount', decimals, required: true, defaultValue: major(limits?.perTransactionLimit, currency) },
    { name: 'dailyLimit', label: `Daily limit (${currency})`, type: 'amount', decimals, defaultValue: major(limits?.dailyLimit, currency), hint: 'Empty: no daily limit.' },
    { name: 'monthlyLimit', label: `Monthly limit (${currency})`, type: 'amount', decimals, defaultValue: major(limits?.monthlyLimit, currency), hint: 'Empty: no monthly limit.' },
    { name: 'dailyTransactionLimit', label: 'Transactions per day', type: 'number', defaultValue: limits?.dailyTransactionLimit === undefined ? undefined : String(limits.dailyTransactionLimit), hint: 'Optional.' },
    {
      name: 'approvalThreshold',
      label: `Approval above (${currency})`,
      type: 'amount',
      decimals,
      defaultValue: current?.approvalThresholds?.currency === currency ? major(current.approvalThresholds.amount, currency) : undefined,
      hint: 'Actions above this amount wait for approval whatever the mode; empty: no threshold.',
    },
    {
      name: 'allowedAccountIds',
      label: 'Allowed internal accounts',
      type: 'textarea',
      defaultValue: current?.accountRestrictions?.allowedAccountIds?.join('\n'),
      hint: 'One internal account id of the customer per line; empty: all of its accounts.',
    },
  ];
}

/** The policy the form describes (a whole policy: on change, it is what the form shows, with account rules kept). */
export function policyBody(v: FormValues, currency: string, current?: AgentPolicy): AgentPolicy {
  const allowed = idList(v.allowedAccountIds);
  const rules = current?.accountRestrictions?.accountRules;
  const threshold = v.approvalThreshold as number | undefined;
  return {
    permissions: AGENT_PERMISSIONS.filter((p) => v[`perm_${p}`] === true),
    defaultExecutionMode: String(v.defaultExecutionMode) as AgentPolicy['defaultExecutionMode'], // a select of the two modes
    spendingLimits: {
      currency,
      perTransactionLimit: v.perTransactionLimit as number,
      dailyLimit: (v.dailyLimit as number | undefined) ?? null,
      monthlyLimit: (v.monthlyLimit as number | undefined) ?? null,
      ...(v.dailyTransactionLimit !== undefined ? { dailyTransactionLimit: v.dailyTransactionLimit as number } : {}),
    },
    accountRestrictions: { allowedAccountIds: allowed.length > 0 ? allowed : null, ...(rules ? { accountRules: rules } : {}) },
    ...(threshold !== undefined ? { approvalThresholds: { currency, amount: threshold } } : current?.approvalThresholds?.amount != null ? { approvalThresholds: { amount: null } } : {}),
  };
}

/** A policy for people: permissions, limits in their currency, restrictions and thresholds. */
export function PolicyView({ policy, usage }: { policy: AgentPolicy; usage?: Agent['usage'] }) {
  const c = policy.spendingLimits.currency;
  const money = (amount: number | null | undefined, currency = c) => (amount === null || amount === undefined ? 'no limit' : <Amount value={{ amount, currency }} />);
  const allowed = policy.accountRestrictions?.allowedAccountIds;
  const rules = policy.accountRestrictions?.accountRules ?? [];
  return (
    <>
      <dl className="key-values">
        <Entry term="Permissions">{policy.permissions.length ? policy.permissions.join(', ') : 'none'}</Entry>
        <Entry term="Default execution mode">{policy.defaultExecutionMode}</Entry>
        <Entry term="Per transaction">{money(policy.spendingLimits.perTransactionLimit)}</Entry>
        <Entry term="Daily">{money(policy.spendingLimits.dailyLimit)}</Entry>
        <Entry term="Monthly">{money(policy.spendingLimits.monthlyLimit)}</Entry>
        <Entry term="Transactions per day">{policy.spendingLimits.dailyTransactionLimit ?? 'no limit'}</Entry>
        <Entry term="Approval above">
          {policy.approvalThresholds?.amount != null ? money(policy.approvalThresholds.amount, policy.approvalThresholds.currency ?? c) : 'no threshold'}
        </Entry>
        <Entry term="Allowed accounts">
          {allowed ? (
            <ul>
              {allowed.map((a) => (
                <li key={a}>
                  <Id value={a} />
                </li>
              ))}
            </ul>
          ) : (
            'all of the customer’s'
          )}
        </Entry>
        {usage && (
          <>
            <Entry term="Spent today">
              {money(usage.dailySpend)} in {usage.dailyTransactionCount} transactions
            </Entry>
            <Entry term="Spent this month">{money(usage.monthlySpend)}</Entry>
          </>
        )}
      </dl>
      {rules.length > 0 && (
        <DataTable
          rows={rules}
          label="Policy limits"
          caption="Account rules"
          empty=""
          rowKey={(r) => r.accountId}
          columns={[
            { label: 'Account', cell: (r) => <Id value={r.accountId} /> },
            { label: 'Execution mode', cell: (r) => r.executionMode ?? 'the default' },
            { label: 'Per transaction', cell: (r) => (r.perTransactionLimit == null ? 'the policy’s' : money(r.perTransactionLimit)) },
          ]}
        />
      )}
    </>
  );
}
