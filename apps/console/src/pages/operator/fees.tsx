import { useState } from 'react';
import { useLocation } from 'wouter';
import { call } from '../../api/client';
import { ActionForm, FormValues } from '../../components/action-form';
import { Amount, Id } from '../../components/format';
import { Filter, ListView } from '../../components/list-view';
import { decimalsOf, majorToMinor } from '../../lib/money';
import { bps, OperatorLink, RoleGate, seg, useOperatorRole } from './shared';
import { CRYPTO_NETWORKS, NetworkFeeSchedule, ServiceFeeSchedule, Versioned } from './types';

const VIEWS = [
  { id: 'service', label: 'Service fees' },
  { id: 'network', label: 'Network fees' },
  { id: 'service-history', label: 'Service fee history' },
  { id: 'network-history', label: 'Network fee history' },
] as const;
type View = (typeof VIEWS)[number]['id'];

/** Every fee view filters by scope: a platform, or the deployment's own entries. */
const SCOPE_FILTER: Filter = { name: 'platformId', label: 'Platform id', placeholder: 'Platform:… or deployment' };

const scope = (platformId: string | null) => (platformId ? <Id value={platformId} /> : <span>deployment</span>);
const corridor = (s: ServiceFeeSchedule) => (s.sourceCurrency ? `${s.sourceCurrency}→${s.destinationCurrency}` : 'every corridor');
const fixedFees = (s: ServiceFeeSchedule) =>
  s.fixedFees.length === 0 ? (
    <span>none</span>
  ) : (
    s.fixedFees.map((f, i) => (
      <span key={f.currency}>
        {i > 0 ? ', ' : ''}
        <Amount value={f} />
      </span>
    ))
  );

/** `USD 0.25, EUR 0.20` (major units) as the API's fixed fees (smallest units); an error names the bad part. */
export function parseFixedFees(text: string): { amount: number; currency: string }[] {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  return parts.map((part) => {
    const match = /^([A-Za-z]{3,5})\s+(\S+)$/.exec(part);
    if (!match) throw new Error(`fixed fee "${part}": write a currency and an amount, such as USD 0.25`);
    const currency = match[1].toUpperCase();
    const parsed = majorToMinor(match[2], decimalsOf(currency));
    if ('error' in parsed) throw new Error(`fixed fee "${part}": ${parsed.error}`);
    return { amount: parsed.minor, currency };
  });
}

const text = (v: FormValues, name: string) => (typeof v[name] === 'string' ? (v[name] as string) : undefined);
const upper = (v: FormValues, name: string) => text(v, name)?.toUpperCase();

/** The service's fees and the crypto withdrawal network fees of the deployment, their histories, set and remove. */
export function FeesPage() {
  const [view, setView] = useState<View>('service');
  const [location, navigate] = useLocation();
  const [changes, setChanges] = useState(0);
  const role = useOperatorRole();
  const changed = <T,>(answer: T) => {
    setChanges((n) => n + 1);
    return answer;
  };
  return (
    <>
      <h1>Fees</h1>
      <p>
        The service fee is what the deployment charges platforms on a production cross-currency quote, on top of the platform's own fees: the first
        schedule that exists of the platform's corridor, the platform's default, the deployment's corridor, the deployment's default. Network fees
        price production crypto withdrawals. The sandbox keeps its built-in fees.
      </p>
      <nav aria-label="Fee views" className="actions">
        {VIEWS.map((v) => (
          <button
            key={v.id}
            type="button"
            className={v.id === view ? undefined : 'secondary outline'}
            aria-pressed={v.id === view}
            onClick={() => {
              setView(v.id);
              // Each view has its own filters and cursor: start it clean.
              navigate(location);
            }}
          >
            {v.label}
          </button>
        ))}
      </nav>
      {view === 'service' && (
        <section aria-labelledby="service-heading">
          <h2 id="service-heading">Service fee schedules in force</h2>
          <ListView<ServiceFeeSchedule>
            key={`service-${changes}`}
            path="/fees/service"
            noun="schedules"
            filters={[
              SCOPE_FILTER,
              { name: 'sourceCurrency', label: 'Source currency', placeholder: 'USD' },
              { name: 'destinationCurrency', label: 'Destination currency', placeholder: 'EUR' },
            ]}
            columns={[
              { label: 'Schedule', cell: (s) => <code className="id">{s.id}</code> },
              { label: 'Scope', cell: (s) => scope(s.platformId) },
              { label: 'Corridor', cell: corridor },
              { label: 'Variable', cell: (s) => bps(s.variableFeeBps) },
              { label: 'Fixed', cell: fixedFees },
              { label: 'Version', field: 'version' },
              { label: 'Updated', field: 'updatedAt' },
              { label: 'By', cell: (s) => <OperatorLink operator={s.updatedBy} /> },
            ]}
          />
          <h3>Set a service fee</h3>
          <RoleGate role={role} needed="ADMIN" what="Setting a fee">
            <ActionForm
              submitLabel="Set service fee"
              fields={[
                { name: 'platformId', label: 'Platform id (optional)', placeholder: 'Platform:…', hint: 'Empty: the whole deployment.' },
                { name: 'sourceCurrency', label: 'Source currency (optional)', placeholder: 'USD', hint: 'With the destination: one corridor; neither: every corridor.' },
                { name: 'destinationCurrency', label: 'Destination currency (optional)', placeholder: 'EUR' },
                { name: 'variableFeeBps', label: 'Variable fee (basis points)', type: 'number', required: true, hint: '50 = 0.5% of the sending amount.' },
                { name: 'fixedFees', label: 'Fixed fees (optional)', placeholder: 'USD 0.25, EUR 0.20', hint: 'Per sending currency, in major units; a corridor names its source currency only.' },
                { name: 'reason', label: 'Reason (optional)' },
              ]}
              onSubmit={async (v) =>
                changed(
                  await call<ServiceFeeSchedule>('PUT', '/fees/service', {
                    body: {
                      ...(text(v, 'platformId') ? { platformId: text(v, 'platformId') } : {}),
                      ...(upper(v, 'sourceCurrency') ? { sourceCurrency: upper(v, 'sourceCurrency') } : {}),
                      ...(upper(v, 'destinationCurrency') ? { destinationCurrency: upper(v, 'destinationCurrency') } : {}),
                      variableFeeBps: v.variableFeeBps,
                      fixedFees: parseFixedFees(text(v, 'fixedFees') ?? ''),
                      ...(text(v, 'reason') ? { reason: text(v, 'reason') } : {}),
                    },
                  }),
                )
              }
              done={(r) => `Set ${(r as ServiceFeeSchedule).id} (version ${(r as ServiceFeeSchedule).version}).`}
            />
          </RoleGate>
          <RemoveForm kind="service" role={role} onRemoved={changed} />
        </section>
      )}
      {view === 'network' && (
        <section aria-labelledby="network-heading">
          <h2 id="network-heading">Network fees in force</h2>
          <ListView<NetworkFeeSchedule>
            key={`network-${changes}`}
            path="/fees/network"
            noun="network fees"
            filters={[
              SCOPE_FILTER,
              { name: 'currency', label: 'Currency', placeholder: 'USDC' },
              { name: 'cryptoNetwork', label: 'Network', options: CRYPTO_NETWORKS },
            ]}
            columns={[
              { label: 'Entry', cell: (s) => <code className="id">{s.id}</code> },
              { label: 'Scope', cell: (s) => scope(s.platformId) },
              { label: 'Currency', field: 'currency' },
              { label: 'Network', field: 'cryptoNetwork' },
              { label: 'Network fee', cell: (s) => <Amount value={{ amount: s.networkFee, currency: s.currency }} /> },
              { label: 'Fee asset', field: 'networkFeeAsset' },
              { label: 'Application fee', cell: (s) => bps(s.applicationFeeBps) },
              { label: 'Version', field: 'version' },
              { label: 'Updated', field: 'updatedAt' },
              { label: 'By', cell: (s) => <OperatorLink operator={s.updatedBy} /> },
            ]}
          />
          <h3>Set a network fee</h3>
          <RoleGate role={role} needed="ADMIN" what="Setting a fee">
            <ActionForm
              submitLabel="Set network fee"
              fields={[
                { name: 'platformId', label: 'Platform id (optional)', placeholder: 'Platform:…', hint: "Empty: the whole deployment (a platform's entry wins)." },
                { name: 'currency', label: 'Currency', required: true, placeholder: 'USDC' },
                { name: 'cryptoNetwork', label: 'Network', type: 'select', required: true, options: CRYPTO_NETWORKS },
                { name: 'networkFee', label: 'Network fee', required: true, placeholder: '0.05', hint: "The chain's fee, in major units of the currency." },
                { name: 'networkFeeAsset', label: 'Fee asset (optional)', placeholder: 'ETH', hint: "The asset the chain charges in; the chain's own when empty." },
                { name: 'applicationFeeBps', label: 'Application fee (basis points)', type: 'number', required: true },
                { name: 'reason', label: 'Reason (optional)' },
              ]}
              onSubmit={async (v) => {
                const currency = upper(v, 'currency') ?? '';
                const fee = majorToMinor(text(v, 'networkFee') ?? '', decimalsOf(currency));
                if ('error' in fee) throw new Error(`network fee: ${fee.error}`);
                return changed(
                  await call<NetworkFeeSchedule>('PUT', '/fees/network', {
                    body: {
                      ...(text(v, 'platformId') ? { platformId: text(v, 'platformId') } : {}),
                      currency,
                      cryptoNetwork: v.cryptoNetwork,
                      networkFee: fee.minor,
                      ...(upper(v, 'networkFeeAsset') ? { networkFeeAsset: upper(v, 'networkFeeAsset') } : {}),
                      applicationFeeBps: v.applicationFeeBps,
                      ...(text(v, 'reason') ? { reason: text(v, 'reason') } : {}),
                    },
                  }),
                );
              }}
              done={(r) => `Set ${(r as NetworkFeeSchedule).id} (version ${(r as NetworkFeeSchedule).version}).`}
            />
          </RoleGate>
          <RemoveForm kind="network" role={role} onRemoved={changed} />
        </section>
      )}
      {view === 'service-history' && (
        <section aria-labelledby="service-history-heading">
          <h2 id="service-history-heading">Service fee history</h2>
          <ListView<Versioned<ServiceFeeSchedule>>
            key={`service-history-${changes}`}
            path="/fees/service/history"
            noun="changes"
            rowKey={(s) => `${s.id}-${s.version}`}
            filters={[
              { name: 'scheduleId', label: 'Schedule id', placeholder: 'ServiceFeeSchedule:…' },
              SCOPE_FILTER,
            ]}
            columns={[
              { label: 'When', field: 'updatedAt' },
              { label: 'Schedule', cell: (s) => <code className="id">{s.id}</code> },
              { label: 'Version', field: 'version' },
              { label: 'Change', field: 'change' },
              { label: 'Variable', cell: (s) => bps(s.variableFeeBps) },
              { label: 'Fixed', cell: fixedFees },
              { label: 'By', cell: (s) => <OperatorLink operator={s.updatedBy} /> },
              { label: 'Reason', field: 'reason' },
            ]}
          />
        </section>
      )}
      {view === 'network-history' && (
        <section aria-labelledby="network-history-heading">
          <h2 id="network-history-heading">Network fee history</h2>
          <ListView<Versioned<NetworkFeeSchedule>>
            key={`network-history-${changes}`}
            path="/fees/network/history"
            noun="changes"
            rowKey={(s) => `${s.id}-${s.version}`}
            filters={[
              { name: 'scheduleId', label: 'Entry id', placeholder: 'NetworkFeeSchedule:…' },
              SCOPE_FILTER,
            ]}
            columns={[
              { label: 'When', field: 'updatedAt' },
              { label: 'Entry', cell: (s) => <code className="id">{s.id}</code> },
              { label: 'Version', field: 'version' },
              { label: 'Change', field: 'change' },
              { label: 'Network fee', cell: (s) => <Amount value={{ amount: s.networkFee, currency: s.currency }} /> },
              { label: 'Application fee', cell: (s) => bps(s.applicationFeeBps) },
              { label: 'By', cell: (s) => <OperatorLink operator={s.updatedBy} /> },
              { label: 'Reason', field: 'reason' },
            ]}
          />
        </section>
      )}
    </>
  );
}

function RemoveForm({ kind, role, onRemoved }: { kind: 'service' | 'network'; role: ReturnType<typeof useOperatorRole>; onRemoved: <T>(answer: T) => T }) {
  return (
    <>
      <h3>Remove a {kind === 'service' ? 'service fee schedule' : 'network fee'}</h3>
      <RoleGate role={role} needed="ADMIN" what="Removing a fee">
        <p>
          {kind === 'service'
            ? 'Its scope falls back to the next schedule (or no service fee).'
            : "The deployment's entry applies again, or none: production withdrawal estimates on that network then answer 501."}
        </p>
        <ActionForm
          submitLabel={kind === 'service' ? 'Remove schedule' : 'Remove network fee'}
          confirm="Remove this fee now? Quotes priced from now on no longer use it."
          fields={[
            { name: 'scheduleId', label: 'Id (from the table)', required: true, placeholder: kind === 'service' ? 'ServiceFeeSchedule:…' : 'NetworkFeeSchedule:…' },
            { name: 'reason', label: 'Reason (optional)' },
          ]}
          onSubmit={async (v) =>
            onRemoved(await call('DELETE', `/fees/${kind}/${seg(String(v.scheduleId))}`, { query: { reason: typeof v.reason === 'string' ? v.reason : undefined } }))
          }
          done={() => 'Removed.'}
        />
      </RoleGate>
    </>
  );
}
