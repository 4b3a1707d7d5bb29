import { useState } from 'react';
import { call } from '../../api/client';
import { ActionForm } from '../../components/action-form';
import { KeyValues, Status, Time } from '../../components/format';
import { ListView } from '../../components/list-view';
import { useApi } from '../../components/use-api';
import { LoadedView } from '../../components/loaded-view';
import { age, OperatorLink, RoleGate, seg, useOperatorRole } from './shared';
import { DataTable } from '../../components/data-table';
import type { OperatorRate, OperatorRateEntry, OperatorRateList } from './types';

const pairPath = (source: unknown, destination: unknown) => `/rates/${seg(String(source).toUpperCase())}/${seg(String(destination).toUpperCase())}`;

/** An hour from now, as the API takes it (ISO 8601 UTC): the set form's default end of validity. */
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The rates production prices from, their sources and staleness; the operator table's history; set and withdraw. */
export function RatesPage() {
  const loaded = useApi<OperatorRateList>('/rates');
  const role = useOperatorRole();
  const [changes, setChanges] = useState(0);
  const changed = <T,>(answer: T) => {
    loaded.reload();
    setChanges((n) => n + 1);
    return answer;
  };
  const list = loaded.data;
  const operatorMaxAge = list?.sources.find((s) => s.source === 'OPERATOR_TABLE')?.maxAgeSeconds;
  return (
    <>
      <h1>Rates</h1>
      <p>
        Precedence: an operator table entry valid now (the pair as set, else its inverse), then the ECB's euro reference rates (cross rates through
        EUR). A stale rate prices nothing: quotes in that corridor answer 503 RATE_STALE.
      </p>
      <LoadedView loaded={loaded} what="rates">
        {(list) => (
          <>
            <section aria-labelledby="current-heading">
              <h2 id="current-heading">Current rates</h2>
              <RatesTable rates={list.data} />
            </section>
            <section aria-labelledby="sources-heading">
              <h2 id="sources-heading">Sources</h2>
              <div className="cards-row">
                {list.sources.map((s) => (
                  <article key={s.source}>
                    <header>
                      <strong>{s.source}</strong> {s.configured ? s.stale ? <Status value="STALE" /> : <Status value="CONFIGURED" /> : <Status value="NOT CONFIGURED" />}
                    </header>
                    <KeyValues data={{ ...s, maxAge: `${s.maxAgeSeconds} s` }} omit={['source', 'configured', 'maxAgeSeconds']} />
                  </article>
                ))}
              </div>
            </section>
          </>
        )}
      </LoadedView>
      <EffectiveCheck />
      <section aria-labelledby="set-heading">
        <h2 id="set-heading">Set a rate</h2>
        <RoleGate role={role} needed="ADMIN" what="Setting a rate">
          <p>
            Appended to the table's history (never overwriting); the most recently set entry whose window has begun applies.
            {operatorMaxAge ? ` A window lasts at most ${operatorMaxAge} s (RATE_MAX_AGE_SECONDS).` : ''}
          </p>
          <ActionForm
            submitLabel="Set rate"
            fields={[
              { name: 'sourceCurrency', label: 'Source currency', required: true, placeholder: 'USD' },
              { name: 'destinationCurrency', label: 'Destination currency', required: true, placeholder: 'EUR' },
              { name: 'midRate', label: 'Mid rate', required: true, placeholder: '0.9123', hint: 'Destination units per source unit, an exact decimal.' },
              { name: 'validFrom', label: 'Valid from (optional)', placeholder: '2026-01-01T00:00:00Z', hint: 'ISO 8601; now when left empty.' },
              { name: 'validUntil', label: 'Valid until', required: true, defaultValue: inAnHour(), hint: 'ISO 8601, after valid from.' },
              { name: 'reason', label: 'Reason (optional)' },
            ]}
            onSubmit={async (v) => {
              const { sourceCurrency, destinationCurrency, ...body } = v;
              return changed(await call<OperatorRateEntry>('PUT', pairPath(sourceCurrency, destinationCurrency), { body }));
            }}
            done={(r) => {
              const e = r as OperatorRateEntry;
              return `${e.sourceCurrency}→${e.destinationCurrency} set to ${e.midRate} until ${e.validUntil}.`;
            }}
          />
        </RoleGate>
      </section>
      <section aria-labelledby="withdraw-heading">
        <h2 id="withdraw-heading">Withdraw a rate</h2>
        <RoleGate role={role} needed="ADMIN" what="Withdrawing a rate">
          <p>Ends the operator table's rate of the pair now: it prices from the ECB again, or quotes in it are refused.</p>
          <ActionForm
            submitLabel="Withdraw rate"
            confirm="Withdraw this pair's operator rate now? Quotes in the corridor fall back to the ECB or are refused."
            fields={[
              { name: 'sourceCurrency', label: 'Source currency', required: true, placeholder: 'USD' },
              { name: 'destinationCurrency', label: 'Destination currency', required: true, placeholder: 'EUR' },
              { name: 'reason', label: 'Reason (optional)' },
            ]}
            onSubmit={async (v) =>
              changed(await call<OperatorRateEntry>('DELETE', pairPath(v.sourceCurrency, v.destinationCurrency), { query: { reason: v.reason as string | undefined } }))
            }
            done={(r) => `${(r as OperatorRateEntry).sourceCurrency}→${(r as OperatorRateEntry).destinationCurrency} withdrawn.`}
          />
        </RoleGate>
      </section>
      <section aria-labelledby="history-heading">
        <h2 id="history-heading">Operator table history</h2>
        <ListView<OperatorRateEntry>
          key={changes}
          path="/rates/history"
          noun="entries"
          filters={[
            { name: 'sourceCurrency', label: 'Source currency', placeholder: 'USD' },
            { name: 'destinationCurrency', label: 'Destination currency', placeholder: 'EUR' },
          ]}
          columns={[
            { label: 'Recorded', field: 'recordedAt' },
            { label: 'Pair', cell: (e) => `${e.sourceCurrency}→${e.destinationCurrency}` },
            { label: 'Change', field: 'kind' },
            { label: 'Mid rate', field: 'midRate' },
            { label: 'Valid from', cell: (e) => <Time iso={e.validFrom} /> },
            { label: 'Valid until', cell: (e) => <Time iso={e.validUntil} /> },
            { label: 'By', cell: (e) => <OperatorLink operator={e.operator} /> },
            { label: 'Reason', field: 'reason' },
          ]}
        />
      </section>
    </>
  );
}

function RatesTable({ rates }: { rates: OperatorRate[] }) {
  return (
    <DataTable
      rows={rates}
      label="Current rates (table)"
      empty="No rate: the operator table is empty and the ECB source is not configured or has no document yet."
      rowKey={(r) => `${r.source}-${r.sourceCurrency}-${r.destinationCurrency}`}
      columns={[
        { label: 'Pair', cell: (r) => `${r.sourceCurrency}→${r.destinationCurrency}` },
        { label: 'Mid rate', cell: (r) => <code>{r.midRate}</code> },
        { label: 'Source', cell: (r) => `${r.source}${r.referenceDate ? ` (${r.referenceDate})` : ''}` },
        { label: 'Published', cell: (r) => <Time iso={r.publishedAt} /> },
        { label: 'Age', cell: (r) => age(r.publishedAt) },
        { label: 'Valid until', cell: (r) => <Time iso={r.validUntil} /> },
        { label: 'State', cell: (r) => (r.stale ? <Status value="STALE" /> : <Status value="ACTIVE" />) },
        { label: 'Reason', cell: (r) => r.reason ?? '—' },
      ]}
    />
  );
}

/** What a quote in one corridor gets now: the rate and its source, or the error it answers. */
function EffectiveCheck() {
  return (
    <section aria-labelledby="effective-heading">
      <h2 id="effective-heading">Check a corridor</h2>
      <ActionForm
        submitLabel="Check"
        fields={[
          { name: 'sourceCurrency', label: 'Source currency', required: true, placeholder: 'USD' },
          { name: 'destinationCurrency', label: 'Destination currency', required: true, placeholder: 'MXN' },
        ]}
        onSubmit={(v) =>
          call<OperatorRateList>('GET', '/rates', {
            query: { sourceCurrency: String(v.sourceCurrency).toUpperCase(), destinationCurrency: String(v.destinationCurrency).toUpperCase() },
          })
        }
        done={(r) => {
          const effective = (r as OperatorRateList).effective;
          if (!effective) return 'No answer for this corridor.';
          if (effective.refusal)
            return (
              <p>
                {effective.sourceCurrency}→{effective.destinationCurrency}: refused, {effective.refusal.status} {effective.refusal.code}: {effective.refusal.message}
              </p>
            );
          const p = effective.pricing;
          return p ? (
            <p>
              {effective.sourceCurrency}→{effective.destinationCurrency}: <code>{p.midRate}</code> from {p.source} ({p.derivation}), published{' '}
              <Time iso={p.publishedAt} /> ({age(p.publishedAt)}), valid until <Time iso={p.validUntil} />.
            </p>
          ) : (
            'No pricing.'
          );
        }}
      />
    </section>
  );
}
