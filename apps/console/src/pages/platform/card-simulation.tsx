import { useEffect, useId, useState } from 'react';
import { api } from '../../api/client';
import { ActionForm, Field, FormValues } from '../../components/action-form';
import { Amount, Entry, Id, Status } from '../../components/format';
import { ProblemNotice } from '../../components/problem';
import { asProblem } from '../../components/use-api';
import { decimalsOf } from '../../lib/money';
import { CardTransaction, cardTransactionByToken } from './card-transactions';

/** The sandbox card network's messages (`POST /sandbox/cards/{id}/simulate/<kind>`) and what each one needs. */
const SIMULATIONS = {
  authorization: { body: 'purchase', about: 'Holds the amount on the first funding source that covers it and pulls it.' },
  authorization_advice: { body: 'advice', about: 'The new total authorized of an AUTHORIZED or PARTIALLY_SETTLED transaction: more is pulled, or the difference goes back.' },
  balance_inquiry: { body: 'merchant', about: 'A zero-amount authorization: a SETTLED transaction with closedReason BALANCE_INQUIRY; nothing moves.' },
  clearing: { body: 'clearing', about: 'Settles against an AUTHORIZED or PARTIALLY_SETTLED transaction; above the authorized amount the difference is pulled after the fact; 0 is the authorization’s expiry.' },
  credit_authorization: { body: 'purchase', about: 'The merchant sends money to the card: a CREDIT transaction, credited when it clears.' },
  credit_authorization_advice: { body: 'purchase', about: 'A credit the network already approved: as credit_authorization.' },
  financial_authorization: { body: 'purchase', about: 'Single message: authorized, pulled and settled at once.' },
  financial_credit_authorization: { body: 'purchase', about: 'Single-message credit: the funding source is credited at once.' },
  return: { body: 'return', about: 'Refunds up to the net settled amount of a settled transaction to its funding source.' },
  return_reversal: { body: 'reversal', about: 'Takes back the latest return of a REFUNDED transaction.' },
} as const;
type Simulation = keyof typeof SIMULATIONS;
const KINDS = Object.keys(SIMULATIONS) as Simulation[];

/** What the last three characters of the merchant descriptor do to an authorization-family message (docs/cards.md). */
const OUTCOMES: [string, string][] = [
  ['…002', 'declined: INSUFFICIENT_FUNDS'],
  ['…003', 'declined: CARD_PAUSED'],
  ['…005', 'approved; the pull from the funding source is delayed about 30 s'],
  ['…006', 'approved; the pull confirmation FAILED (the transaction becomes EXCEPTION)'],
  ['anything else', 'approved'],
];

interface Outcome {
  simulation: Simulation;
  token: string;
  cardTransactionId?: string;
}

/**
 * Every card simulation of the sandbox as one form: the message, then its fields (merchant, amount in major units of
 * the card's currency, the parent card transaction for follow-ups), and what it did once payments has seen it.
 */
export function CardSimulations({ cardId, currency, pick, onSimulated }: { cardId: string; currency: string; pick?: string; onSimulated: () => void }) {
  const selectId = useId();
  const [simulation, setSimulation] = useState<Simulation>('authorization');
  const [outcome, setOutcome] = useState<Outcome>();
  const kind = SIMULATIONS[simulation].body;
  const decimals = decimalsOf(currency);
  const needsParent = kind === 'advice' || kind === 'clearing' || kind === 'return' || kind === 'reversal';
  const hasMerchant = kind === 'purchase' || kind === 'merchant';
  const hasAmount = kind !== 'merchant' && kind !== 'reversal';

  const fields: Field[] = [
    ...(needsParent
      ? [{ name: 'cardTransactionId', label: 'Card transaction', required: true, placeholder: 'CardTransaction:…', defaultValue: pick, hint: 'The parent transaction of this card (Use in the list below fills it in).' }]
      : []),
    ...(hasMerchant
      ? [
          { name: 'descriptor', label: 'Merchant descriptor', required: true, defaultValue: 'BLUE BOTTLE COFFEE SF', hint: 'Its last three characters pick the outcome (see the list).' },
          { name: 'mcc', label: 'Merchant category code', defaultValue: '5814', hint: 'Four digits (ISO 18245); optional.' },
          { name: 'country', label: 'Merchant country', defaultValue: 'US', hint: 'ISO 3166-1 alpha-2; optional.' },
        ]
      : []),
    ...(hasAmount
      ? [
          {
            name: 'amount',
            label: `Amount (${currency})`,
            type: 'amount' as const,
            decimals,
            required: true,
            hint: kind === 'advice' ? 'The new total authorized.' : kind === 'clearing' ? '0 expires the authorization; above the authorized amount pulls the difference.' : kind === 'return' ? 'At most the net settled amount.' : undefined,
          },
        ]
      : []),
  ];

  const submit = async (v: FormValues) => {
    const merchant = { descriptor: v.descriptor, ...(v.mcc ? { mcc: v.mcc } : {}), ...(v.country ? { country: String(v.country).toUpperCase() } : {}) };
    const body =
      kind === 'purchase'
        ? { amount: v.amount, currency: { code: currency }, merchant }
        : kind === 'merchant'
          ? { merchant }
          : kind === 'reversal'
            ? { cardTransactionId: v.cardTransactionId }
            : { cardTransactionId: v.cardTransactionId, amount: v.amount };
    const answer = await api.post<{ issuerTransactionToken: string }>(`/sandbox/cards/${encodeURIComponent(cardId)}/simulate/${simulation}`, body);
    setOutcome({ simulation, token: answer.issuerTransactionToken, cardTransactionId: needsParent ? String(v.cardTransactionId) : undefined });
    return answer;
  };

  return (
    <div className="grid">
      <div>
        <label htmlFor={selectId}>
          Simulation
          <select id={selectId} value={simulation} onChange={(e) => setSimulation(e.target.value as Simulation)} aria-describedby={`${selectId}-about`}>
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
          <small id={`${selectId}-about`}>{SIMULATIONS[simulation].about}</small>
        </label>
        <ActionForm
          key={pick ?? ''}
          fields={fields}
          submitLabel="Run simulation"
          onSubmit={submit}
          done={(r) => (
            <p>
              The network message was accepted (HTTP 202); issuer token <code>{(r as { issuerTransactionToken: string }).issuerTransactionToken}</code>.
            </p>
          )}
        />
        {outcome && <SimulationOutcome key={outcome.token} outcome={outcome} onSeen={onSimulated} />}
      </div>
      <aside aria-label="Descriptor outcomes">
        <h3>Descriptor outcomes</h3>
        <p>For authorization, credit and financial messages, the last three characters of the merchant descriptor decide:</p>
        <dl className="key-values">
          {OUTCOMES.map(([suffix, what]) => (
            <Entry key={suffix} term={suffix}>
              {what}
            </Entry>
          ))}
        </dl>
        <p>
          <small>
            A FROZEN card declines with CARD_PAUSED, an amount above the card’s maxSpendPerTransaction with SPEND_LIMIT_EXCEEDED, and funding sources that cannot cover it
            with INSUFFICIENT_FUNDS. A decline opens no card transaction.
          </small>
        </p>
      </aside>
    </div>
  );
}

/** Waits until payments shows what the message did (card transactions reach it over the bus, a moment later). */
function SimulationOutcome({ outcome, onSeen }: { outcome: Outcome; onSeen: () => void }) {
  const [state, setState] = useState<{ kind: 'waiting' } | { kind: 'found'; tx: CardTransaction } | { kind: 'none' } | { kind: 'error'; error: ReturnType<typeof asProblem> }>({ kind: 'waiting' });
  useEffect(() => {
    let live = true;
    const find = async () => {
      if (outcome.cardTransactionId) {
        await new Promise((r) => setTimeout(r, 1000));
        return api.get<CardTransaction>(`/transactions/${encodeURIComponent(outcome.cardTransactionId)}`);
      }
      return cardTransactionByToken(outcome.token);
    };
    find().then(
      (tx) => {
        if (!live) return;
        setState(tx ? { kind: 'found', tx } : { kind: 'none' });
        onSeen();
      },
      (error: unknown) => live && setState({ kind: 'error', error: asProblem(error) }),
    );
    return () => {
      live = false;
    };
  }, [outcome, onSeen]);
  return (
    <div role="status">
      {state.kind === 'waiting' && <p aria-busy="true">Waiting for the card transaction of {outcome.simulation}…</p>}
      {state.kind === 'found' && (
        <p>
          {outcome.simulation}: card transaction <Id value={state.tx.id} to={`/transactions/${encodeURIComponent(state.tx.id)}`} /> is <Status value={state.tx.status} />
          {state.tx.closedReason ? ` (${state.tx.closedReason})` : ''}, authorized <Amount value={state.tx.authorizedAmount} />
          {state.tx.settledAmount ? (
            <>
              , settled <Amount value={state.tx.settledAmount} />
            </>
          ) : null}
          {state.tx.refundedAmount ? (
            <>
              , refunded <Amount value={state.tx.refundedAmount} />
            </>
          ) : null}
          {state.tx.pullSummary?.pendingCount ? `; ${state.tx.pullSummary.pendingCount} pull pending` : ''}.
        </p>
      )}
      {state.kind === 'none' && (
        <p>
          {outcome.simulation}: no card transaction appeared for issuer token <code>{outcome.token}</code>. The message was most likely declined (a decline opens no
          transaction and the API does not list it); see the descriptor outcomes.
        </p>
      )}
      {state.kind === 'error' && <ProblemNotice problem={state.error} />}
    </div>
  );
}
