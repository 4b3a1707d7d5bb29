import { useId, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { api } from '../../api/client';
import { ActionForm } from '../../components/action-form';
import { Id, KeyValues, Status, Time } from '../../components/format';
import { ListView } from '../../components/list-view';
import { useApi } from '../../components/use-api';
import { LoadedView } from '../../components/loaded-view';
import { ApprovalsList } from './agent-approvals';
import { Agent, policyBody, policyFields, PolicyView } from './agent-policy';
import { CurrencyChoice } from '../../components/currency-choice';
import { useRouteParam } from '../../components/route-param';

interface DeviceCode {
  code?: string;
  agentId: string;
  expiresAt: string;
  redeemed: boolean;
}

interface AccessToken {
  id: string;
  agentId: string;
  status: string;
  createdAt: string;
  expiresAt: string;
}

const agentLink = (id: string) => `/agents/${encodeURIComponent(id)}`;

export function AgentsPage() {
  return (
    <>
      <h1>Agents</h1>
      <p>
        An agent is software acting for one of your customers under a policy. It connects by redeeming a device code; actions its policy holds back wait on the{' '}
        <Link href="/approvals">approvals</Link> page.
      </p>
      <ListView<Agent>
        path="/agents"
        noun="agents"
        filters={[
          { name: 'customerId', label: 'Customer id', placeholder: 'Customer:…' },
          { name: 'isPaused', label: 'Paused', options: ['true', 'false'] },
          { name: 'isConnected', label: 'Connected', options: ['true', 'false'] },
          { name: 'createdAfter', label: 'Created after', placeholder: '2026-01-31T00:00:00Z' },
          { name: 'createdBefore', label: 'Created before', placeholder: '2026-01-31T23:59:59Z' },
        ]}
        columns={[
          { label: 'Name', cell: (a) => <Link href={agentLink(a.id)}>{a.name}</Link> },
          { label: 'Agent', cell: (a) => <Id value={a.id} /> },
          { label: 'Customer', cell: (a) => <Id value={a.customerId} to={`/customers/${encodeURIComponent(a.customerId)}`} /> },
          { label: 'Paused', field: 'isPaused' },
          { label: 'Connected', field: 'isConnected' },
          { label: 'Execution', cell: (a) => a.policy.defaultExecutionMode },
          { label: 'Permissions', cell: (a) => a.policy.permissions.length },
          { label: 'Created', field: 'createdAt' },
        ]}
      />
      <CreateAgent />
    </>
  );
}

/** A device code, shown the one time the API answers it. */
function ShownOnce({ code }: { code: DeviceCode }) {
  return (
    <article>
      <p>
        <strong>Shown once.</strong> Give this device code to the agent’s software now: the API keeps only a hash of it and will not show it again. The software redeems
        it (POST /agents/device-codes/&#123;code&#125;/redeem) for its access token before <Time iso={code.expiresAt} />.
      </p>
      {code.code ? (
        <p className="secret" data-testid="device-code">
          {code.code}
        </p>
      ) : (
        <p>The API did not return the code again (an Idempotency-Key replay): issue a new one.</p>
      )}
    </article>
  );
}

function CreateAgent() {
  const headingId = useId();
  const [currency, setCurrency] = useState('USD');
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>Create an agent</h2>
      <CurrencyChoice label="Currency of the limits" value={currency} onChange={setCurrency} />
      <ActionForm
        submitLabel="Create agent"
        fields={[{ name: 'name', label: 'Name', required: true }, { name: 'customerId', label: 'Customer id', required: true, placeholder: 'Customer:…' }, ...policyFields(currency || 'USD')]}
        onSubmit={(v, { idempotencyKey }) => api.post('/agents', { name: v.name, customerId: v.customerId, policy: policyBody(v, currency || 'USD') }, { idempotencyKey })}
        done={(r) => {
          const created = r as { agent: Agent; deviceCode: DeviceCode };
          return (
            <>
              <p>
                Agent <Link href={agentLink(created.agent.id)}>{created.agent.name}</Link> created.
              </p>
              <ShownOnce code={created.deviceCode} />
            </>
          );
        }}
      />
    </section>
  );
}

export function AgentDetailPage() {
  const agentId = useRouteParam('agentId');
  const loaded = useApi<Agent>(agentLink(agentId));
  const [latest, setLatest] = useState<Agent>();
  const agent = latest?.id === agentId ? latest : loaded.data;
  const changed = (a: Agent) => {
    setLatest(a);
    return a;
  };
  return (
    <>
      <h1>Agent {agent?.name ?? ''}</h1>
      <p>
        <Link href="/agents">All agents</Link>
      </p>
      <LoadedView loaded={loaded} data={agent} what="the agent">
        {(agent) => (
          <>
            <KeyValues data={agent as unknown as Record<string, unknown>} omit={['policy', 'usage', 'name']} />
            <section>
              <h2>Policy</h2>
              <PolicyView policy={agent.policy} usage={agent.usage} />
              <PolicyEditor agent={agent} onChanged={changed} />
            </section>
            <AgentControls agent={agent} onChanged={changed} />
            <section>
              <h2>Actions waiting for approval</h2>
              <p>
                <small>The API lists an agent’s actions to the platform only while they wait for a decision; the agent sees all of its own.</small>
              </p>
              <ApprovalsList agentId={agent.id} />
            </section>
            <AccessTokens agentId={agent.id} />
          </>
        )}
      </LoadedView>
    </>
  );
}

function PolicyEditor({ agent, onChanged }: { agent: Agent; onChanged: (a: Agent) => Agent }) {
  const [currency, setCurrency] = useState(agent.policy.spendingLimits.currency);
  return (
    <details>
      <summary>Change the policy</summary>
      <CurrencyChoice label="Currency of the limits" value={currency} onChange={setCurrency} hint="A new currency converts the limits at the rate of the moment." />
      <ActionForm
        key={`${agent.updatedAt}:${currency}`}
        submitLabel="Save policy"
        fields={policyFields(currency || 'USD', agent.policy)}
        onSubmit={async (v) => onChanged(await api.patch<Agent>(`${agentLink(agent.id)}/policy`, policyBody(v, currency || 'USD', agent.policy)))}
        done={() => <p>Policy saved; it applies from the agent’s next request.</p>}
      />
    </details>
  );
}

function AgentControls({ agent, onChanged }: { agent: Agent; onChanged: (a: Agent) => Agent }) {
  const [, navigate] = useLocation();
  const path = agentLink(agent.id);
  const [code, setCode] = useState<DeviceCode>();
  return (
    <section>
      <h2>Manage</h2>
      <div className="actions">
        {agent.isPaused ? (
          <ActionForm fields={[]} submitLabel="Resume agent" onSubmit={async () => onChanged(await api.patch<Agent>(path, { isPaused: false }))} />
        ) : (
          <ActionForm
            fields={[]}
            submitLabel="Pause agent"
            confirm="Pause this agent? Its access tokens answer 401 at once until you resume it."
            onSubmit={async () => onChanged(await api.patch<Agent>(path, { isPaused: true }))}
          />
        )}
        <ActionForm
          fields={[]}
          submitLabel="Issue a new device code"
          confirm="Issue a new device code? Earlier codes not yet redeemed stop working."
          onSubmit={async () => {
            const c = await api.post<DeviceCode>(`${path}/device-codes`, {});
            setCode(c);
            return c;
          }}
        />
        <ActionForm
          fields={[]}
          submitLabel="Delete agent"
          confirm="Delete this agent for good? Its tokens stop working from the next request and its waiting actions are rejected."
          onSubmit={async () => {
            await api.delete(path);
            navigate('/agents');
          }}
        />
      </div>
      {code && <ShownOnce code={code} />}
      <details>
        <summary>Rename</summary>
        <ActionForm
          key={agent.name}
          fields={[{ name: 'name', label: 'Name', required: true, defaultValue: agent.name }]}
          submitLabel="Rename"
          onSubmit={async (v) => onChanged(await api.patch<Agent>(path, { name: v.name }))}
        />
      </details>
    </section>
  );
}

function AccessTokens({ agentId }: { agentId: string }) {
  const [round, setRound] = useState(0);
  const [revoked, setRevoked] = useState<string>();
  return (
    <section>
      <h2>Access tokens</h2>
      <p>Tokens the agent’s software redeemed (their ids, never the tokens). Revoking one stops it from the next request; the agent’s other tokens keep working.</p>
      {revoked && (
        <p role="status">
          Revoked <Id value={revoked} />.
        </p>
      )}
      <ListView<AccessToken>
        key={round}
        path={`${agentLink(agentId)}/access-tokens`}
        noun="access tokens"
        inUrl={false}
        columns={[
          { label: 'Token', cell: (t) => <Id value={t.id} /> },
          { label: 'Status', cell: (t) => <Status value={t.status} /> },
          { label: 'Redeemed', cell: (t) => <Time iso={t.createdAt} /> },
          { label: 'Expires', cell: (t) => <Time iso={t.expiresAt} /> },
          {
            label: 'Revoke',
            cell: (t) =>
              t.status === 'ACTIVE' ? (
                <ActionForm
                  fields={[]}
                  submitLabel="Revoke"
                  confirm={`Revoke access token ${t.id}? The agent's software using it gets 401 from its next request.`}
                  onSubmit={async () => {
                    await api.delete(`${agentLink(agentId)}/access-tokens/${encodeURIComponent(t.id)}`);
                    setRevoked(t.id);
                    setRound((r) => r + 1);
                  }}
                />
              ) : (
                '—'
              ),
          },
        ]}
      />
    </section>
  );
}

export function ApprovalsPage() {
  return (
    <>
      <h1>Approvals</h1>
      <p>Actions of your agents that their policy held back (APPROVAL_REQUIRED, or above the approval threshold). Approving runs them at once; rejecting runs nothing.</p>
      <ApprovalsList />
    </>
  );
}
