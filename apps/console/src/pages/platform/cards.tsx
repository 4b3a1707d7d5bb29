import { useCallback, useId, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { api } from '../../api/client';
import { ActionForm, FormValues } from '../../components/action-form';
import { Amount, Entry, Id, KeyValues, Status, Time } from '../../components/format';
import { ListView } from '../../components/list-view';
import { useApi } from '../../components/use-api';
import { LoadedView } from '../../components/loaded-view';
import { CardSimulations } from './card-simulation';
import { CardTransactionsTable, useCardTransactions } from './card-transactions';
import { CurrencyChoice } from '../../components/currency-choice';
import { decimalsOf } from '../../lib/money';
import { useRouteParam } from '../../components/route-param';
import { useSessionMode } from '../../components/session-context';
import { idList } from '../../lib/id-list';
import type { Card, SignedRequestChallenge } from '@payments/contracts';

const CARD_STATES = ['PROCESSING', 'ACTIVE', 'FROZEN', 'CLOSED'] as const;

const limitOf = (card: Card) => (card.maxSpendPerTransaction === null ? undefined : { amount: card.maxSpendPerTransaction, currency: card.currency ?? 'USD' });
const number = (card: Card) => (card.last4 ? `•••• ${card.last4}` : '—');

export function CardsPage() {
  return (
    <>
      <h1>Cards</h1>
      <ListView<Card>
        path="/cards"
        noun="cards"
        filters={[
          { name: 'cardholderId', label: 'Cardholder id', placeholder: 'Customer:…' },
          { name: 'accountId', label: 'Funding account id', placeholder: 'InternalAccount:…' },
          { name: 'platformCardId', label: 'Platform card id' },
          { name: 'state', label: 'State', options: CARD_STATES },
          { name: 'sortOrder', label: 'Order', options: ['desc', 'asc'] },
        ]}
        columns={[
          { label: 'Card', cell: (c) => <Id value={c.id} to={`/cards/${encodeURIComponent(c.id)}`} /> },
          { label: 'State', field: 'state' },
          { label: 'Number', cell: (c) => `${c.brand ?? ''} ${number(c)}`.trim() },
          { label: 'Platform card id', field: 'platformCardId' },
          { label: 'Cardholder', cell: (c) => <Id value={c.cardholderId} to={`/customers/${encodeURIComponent(c.cardholderId)}`} /> },
          { label: 'Currency', field: 'currency' },
          { label: 'Funding sources', cell: (c) => c.fundingSources.length },
          { label: 'Limit per transaction', cell: (c) => (c.maxSpendPerTransaction === null ? 'none' : <Amount value={limitOf(c)} />) },
          { label: 'Created', field: 'createdAt' },
        ]}
      />
      <IssueCard />
    </>
  );
}

function IssueCard() {
  const headingId = useId();
  const [, navigate] = useLocation();
  const [currency, setCurrency] = useState('USD');
  const submit = async (v: FormValues, { idempotencyKey }: { idempotencyKey: string }) => {
    const body = {
      cardholderId: v.cardholderId,
      form: v.form,
      fundingSources: idList(v.fundingSources),
      ...(v.platformCardId ? { platformCardId: v.platformCardId } : {}),
      ...(v.threeDSecurePassword ? { threeDSecurePassword: v.threeDSecurePassword } : {}),
      ...(v.maxSpendPerTransaction !== undefined ? { maxSpendPerTransaction: v.maxSpendPerTransaction } : {}),
    };
    const card = await api.post<Card>('/cards', body, { idempotencyKey });
    navigate(`/cards/${encodeURIComponent(card.id)}`);
    return card;
  };
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>Issue a card</h2>
      <p>
        The cardholder’s KYC must be APPROVED; the funding sources are the cardholder’s internal accounts, all in one card currency (USD, EUR, GBP or USDB), tried
        in the order given. The card starts PROCESSING until the issuer activates it.
      </p>
      <CurrencyChoice label="Card currency" value={currency} onChange={setCurrency} hint="The funding sources' currency (it sets the decimals of the limit)." />
      <ActionForm
        submitLabel="Issue card"
        onSubmit={submit}
        fields={[
          { name: 'cardholderId', label: 'Cardholder customer id', required: true, placeholder: 'Customer:…' },
          { name: 'fundingSources', label: 'Funding source internal account ids', type: 'textarea', required: true, hint: 'One to ten, one per line, in priority order.' },
          { name: 'platformCardId', label: 'Platform card id', hint: 'Your own id of the card (1-128 printable characters, no spaces); optional.' },
          { name: 'form', label: 'Form', type: 'select', options: ['VIRTUAL'], required: true, defaultValue: 'VIRTUAL' },
          { name: 'maxSpendPerTransaction', label: `Limit per transaction (${currency || 'USD'})`, type: 'amount', decimals: decimalsOf(currency || 'USD'), hint: 'Optional; none by default.' },
          { name: 'threeDSecurePassword', label: '3-D Secure password', type: 'password', hint: 'Optional (4-64 characters): passed to an issuer that takes one, never kept.' },
        ]}
      />
    </section>
  );
}

export function CardDetailPage() {
  const cardId = useRouteParam('cardId');
  const loaded = useApi<Card>(`/cards/${encodeURIComponent(cardId)}`);
  const mode = useSessionMode();
  const transactions = useCardTransactions(cardId);
  const [pick, setPick] = useState<string>();
  const [latest, setLatest] = useState<Card>();
  const card = latest?.id === cardId ? latest : loaded.data;
  const { reload } = loaded;
  const changed = useCallback(
    (c: Card) => {
      setLatest(c);
      reload();
    },
    [reload],
  );
  return (
    <>
      <h1>Card {card ? number(card) : ''}</h1>
      <p>
        <Link href="/cards">All cards</Link>
      </p>
      <LoadedView loaded={loaded} data={card} what="the card">
        {(card) => (
          <>
            <section>
              <KeyValues data={card as unknown as Record<string, unknown>} omit={['fundingSources', 'maxSpendPerTransaction']} />
              <dl className="key-values">
                <Entry term="maxSpendPerTransaction">{card.maxSpendPerTransaction === null ? 'no limit' : <Amount value={limitOf(card)} />}</Entry>
              </dl>
              <h2>Funding sources</h2>
              {card.fundingSources.length === 0 ? (
                <p>None{card.state === 'CLOSED' ? ' (closing detached them)' : ''}.</p>
              ) : (
                <ol>
                  {card.fundingSources.map((id) => (
                    <li key={id}>
                      <Id value={id} />
                    </li>
                  ))}
                </ol>
              )}
            </section>
            <CardChanges card={card} onChanged={changed} />
            <section>
              <h2>Card transactions</h2>
              <CardTransactionsTable list={transactions} />
              {mode === 'SANDBOX' && transactions.rows.length > 0 && (
                <p className="actions">
                  {transactions.rows.slice(0, 5).map((t) => (
                    <button key={t.id} type="button" className="secondary outline" onClick={() => setPick(t.id)} title={t.id}>
                      Use …{t.id.slice(-6)} ({t.status}) as the parent
                    </button>
                  ))}
                </p>
              )}
            </section>
            {mode === 'SANDBOX' && (
              <section>
                <h2>Simulate the card network</h2>
                {card.state !== 'ACTIVE' && <p>This card is {card.state}: authorizations will be declined (CARD_PAUSED), follow-ups of earlier ones still work.</p>}
                <CardSimulations cardId={card.id} currency={card.currency ?? 'USD'} pick={pick} onSimulated={transactions.reload} />
              </section>
            )}
            {mode === 'PRODUCTION' && <p>Card simulations exist in the sandbox only.</p>}
          </>
        )}
      </LoadedView>
    </>
  );
}

/** The answer of PATCH /cards/{id}: the card, or the challenge of a signed retry the console cannot sign. */
function PatchAnswer({ answer }: { answer: unknown }) {
  const challenge = answer as Partial<SignedRequestChallenge>;
  if (challenge && typeof challenge.payloadToSign === 'string') {
    return (
      <div>
        <p>
          <strong>Not changed yet (HTTP 202):</strong> an Embedded Wallet funds this card, so the change is a signed retry. Send the same PATCH again with header{' '}
          <code>Request-Id: {challenge.requestId}</code> and a <code>Service-Wallet-Signature</code> made by a session of that wallet over the payload below, before{' '}
          <Time iso={challenge.expiresAt} />. The console holds no wallet session and cannot sign it.
        </p>
        <pre className="json">{challenge.payloadToSign}</pre>
      </div>
    );
  }
  const card = answer as Card;
  return (
    <p>
      Done: the card is <Status value={card.state} />.
    </p>
  );
}

function CardChanges({ card, onChanged }: { card: Card; onChanged: (c: Card) => void }) {
  const path = `/cards/${encodeURIComponent(card.id)}`;
  const patch = async (body: Record<string, unknown>) => {
    const answer = await api.patch<Card | SignedRequestChallenge>(path, body);
    if (answer && 'id' in answer) onChanged(answer);
    return answer;
  };
  const [reveal, setReveal] = useState<{ panEmbedUrl?: string; expiresAt: string }>();
  const mutable = card.state === 'ACTIVE' || card.state === 'FROZEN';
  return (
    <section>
      <h2>Change the card</h2>
      {card.state === 'PROCESSING' && <p>The issuer has not activated this card yet; it cannot be frozen until it is ACTIVE.</p>}
      {card.state === 'CLOSED' && <p>This card is closed{card.stateReason ? ` (${card.stateReason})` : ''}: closing is final.</p>}
      <div className="actions">
        {card.state === 'ACTIVE' && (
          <ActionForm fields={[]} submitLabel="Freeze" onSubmit={() => patch({ state: 'FROZEN' })} done={(a) => <PatchAnswer answer={a} />} />
        )}
        {card.state === 'FROZEN' && (
          <ActionForm fields={[]} submitLabel="Unfreeze" onSubmit={() => patch({ state: 'ACTIVE' })} done={(a) => <PatchAnswer answer={a} />} />
        )}
        {mutable && (
          <ActionForm
            fields={[]}
            submitLabel="Close card"
            confirm="Close this card for good? Its funding sources are detached and its open authorizations expire; a closed card cannot be reopened."
            onSubmit={() => patch({ state: 'CLOSED' })}
            done={(a) => <PatchAnswer answer={a} />}
          />
        )}
        {mutable && (
          <ActionForm
            fields={[]}
            submitLabel="Reveal card details"
            confirm="Mint a link to the page that shows the card number and CVV? The link works once, for 5 minutes, and the reveal is audit-logged."
            onSubmit={async () => {
              const r = await api.post<{ panEmbedUrl?: string; expiresAt: string }>(`${path}/reveal`, {});
              setReveal(r);
              return r;
            }}
          />
        )}
      </div>
      {reveal && (
        <article>
          <p>
            <strong>Shown once.</strong> This link shows the card number and CVV; it works for one visit, until <Time iso={reveal.expiresAt} />. Do not share or store
            it.
          </p>
          {reveal.panEmbedUrl ? (
            <p className="secret">
              <a href={reveal.panEmbedUrl} target="_blank" rel="noreferrer noopener">
                Open the card details
              </a>
            </p>
          ) : (
            <p>The API did not return the link again (an Idempotency-Key replay).</p>
          )}
        </article>
      )}
      {mutable && (
        <details>
          <summary>Funding sources and limit</summary>
          <ActionForm
            submitLabel="Save changes"
            onSubmit={(v) => {
              const body: Record<string, unknown> = {};
              const sources = idList(v.fundingSources);
              if (sources.length > 0 && sources.join('\n') !== card.fundingSources.join('\n')) body.fundingSources = sources;
              if (v.clearLimit) body.maxSpendPerTransaction = null;
              else if (v.maxSpendPerTransaction !== undefined) body.maxSpendPerTransaction = v.maxSpendPerTransaction;
              return patch(body);
            }}
            done={(a) => <PatchAnswer answer={a} />}
            fields={[
              { name: 'fundingSources', label: 'New funding sources (replace all)', type: 'textarea', defaultValue: card.fundingSources.join('\n'), hint: 'One internal account id per line, in priority order; unchanged when empty.' },
              { name: 'maxSpendPerTransaction', label: `New limit per transaction (${card.currency ?? 'USD'})`, type: 'amount', decimals: decimalsOf(card.currency || 'USD') },
              { name: 'clearLimit', label: 'Remove the limit', type: 'checkbox' },
            ]}
          />
        </details>
      )}
    </section>
  );
}
