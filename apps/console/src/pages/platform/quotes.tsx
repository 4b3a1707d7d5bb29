import { FormEvent, useId, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { api, Page } from '../../api/client';
import { ActionForm, Field, FormValues } from '../../components/action-form';
import { DataTable } from '../../components/data-table';
import { Amount, Entry, Id, KeyValues, Status, Time } from '../../components/format';
import { useApi } from '../../components/use-api';
import { LoadedView } from '../../components/loaded-view';
import { decimalsOf, formatAmount } from '../../lib/money';
import { CurrencyChoice } from '../../components/currency-choice';
import { useRouteParam } from '../../components/route-param';
import { useSessionMode } from '../../components/session-context';
import type { QuoteCurrency, PaymentInstructions, Quote } from '@payments/contracts';

interface TransactionRow {
  id: string;
  type: string;
  status: string;
  quoteId?: string;
  sentAmount?: { amount: number; currency: QuoteCurrency };
  receivedAmount?: { amount: number; currency: QuoteCurrency };
  createdAt: string;
}

const PURPOSES = ['GIFT', 'SELF', 'GOODS_OR_SERVICES', 'EDUCATION', 'HEALTH_OR_MEDICAL', 'REAL_ESTATE_PURCHASE', 'TAX_PAYMENT', 'LOAN_PAYMENT', 'UTILITY_BILL', 'DONATION', 'TRAVEL', 'FAMILY_SUPPORT', 'SALARY_PAYMENT', 'OTHER'] as const;
const SCA_FACTORS = ['SMS_OTP', 'TOTP', 'PASSKEY'] as const;

/**
 * Quotes: the API has no list of them (GET /quotes/{id} only), so the page creates one, looks one up by id, and shows
 * the quotes behind the platform's latest transactions (a transaction carries the quoteId it executed).
 */
export function QuotesPage() {
  return (
    <>
      <h1>Quotes</h1>
      <p>
        A quote locks an exchange rate and its fees for a few minutes (until <code>expiresAt</code>). The API lists no quotes: look one up by its id, create
        one, or open one from the transactions below.
      </p>
      <QuoteLookup />
      <CreateQuote />
      <RecentQuotes />
    </>
  );
}

function QuoteLookup() {
  const id = useId();
  const [, navigate] = useLocation();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget).get('quoteId') ?? '').trim();
    if (value) navigate(`/quotes/${encodeURIComponent(value)}`);
  };
  return (
    <section aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Look up a quote</h2>
      <form role="search" aria-label="Look up a quote by id" className="filters" onSubmit={submit}>
        <label htmlFor={`${id}-q`}>
          Quote id
          <input id={`${id}-q`} name="quoteId" placeholder="Quote:…" autoComplete="off" required />
        </label>
        <button type="submit">Open</button>
      </form>
    </section>
  );
}

function CreateQuote() {
  const headingId = useId();
  const [, navigate] = useLocation();
  const [sourceType, setSourceType] = useState<'ACCOUNT' | 'REALTIME_FUNDING'>('ACCOUNT');
  const [destinationType, setDestinationType] = useState<'ACCOUNT' | 'UMA_ADDRESS'>('ACCOUNT');
  const [currency, setCurrency] = useState('USD');
  const sourceId = useId();
  const destinationId = useId();

  const fields: Field[] = [
    ...(sourceType === 'ACCOUNT'
      ? [{ name: 'sourceAccountId', label: 'Source internal account id', required: true, placeholder: 'InternalAccount:…' }]
      : [
          { name: 'sourceCustomerId', label: 'Paying customer id', required: true, placeholder: 'Customer:…' },
          { name: 'sourceCurrency', label: 'Currency the customer pays in', required: true, placeholder: 'USD' },
        ]),
    ...(destinationType === 'ACCOUNT'
      ? [
          { name: 'destinationAccountId', label: 'Destination account id (internal or external)', required: true, placeholder: 'ExternalAccount:… or InternalAccount:…' },
          { name: 'paymentRail', label: 'Payment rail', hint: 'Optional; the usual rail of the destination otherwise.' },
        ]
      : [
          { name: 'umaAddress', label: 'UMA address', required: true, placeholder: '$success.usd@sandbox.uma.money' },
          { name: 'destinationCurrency', label: 'Currency the receiver gets', hint: 'Optional; one the receiver accepts.' },
          { name: 'lookupId', label: 'Receiver lookup id', hint: 'Optional: left empty, the console looks the address up first (GET /receiver/uma/{address}).' },
        ]),
    { name: 'lockedCurrencySide', label: 'Locked side', type: 'select', options: ['SENDING', 'RECEIVING'], required: true, defaultValue: 'SENDING', hint: 'SENDING: the amount is what leaves the source (fees included); RECEIVING: what arrives.' },
    { name: 'lockedCurrencyAmount', label: `Amount (${currency || 'USD'})`, type: 'amount', decimals: decimalsOf(currency || 'USD'), required: true },
    { name: 'description', label: 'Description' },
    { name: 'remittanceInformation', label: 'Remittance information', hint: 'Up to 80 characters; travels with the payout.' },
    { name: 'purposeOfPayment', label: 'Purpose of payment', type: 'select', options: PURPOSES },
    { name: 'scaFactor', label: 'SCA factor', type: 'select', options: SCA_FACTORS, hint: 'Only for customers in SCA regions (EU/EEA); SMS_OTP by default.' },
    ...(sourceType === 'ACCOUNT' ? [{ name: 'immediatelyExecute', label: 'Execute at once (the quote goes straight to payments)', type: 'checkbox' as const }] : []),
  ];

  const submit = async (v: FormValues, { idempotencyKey }: { idempotencyKey: string }) => {
    const destination =
      destinationType === 'ACCOUNT'
        ? { destinationType, accountId: v.destinationAccountId, ...(v.paymentRail ? { paymentRail: v.paymentRail } : {}) }
        : { destinationType, umaAddress: v.umaAddress, ...(v.destinationCurrency ? { currency: String(v.destinationCurrency).toUpperCase() } : {}) };
    let lookupId = v.lookupId as string | undefined;
    if (destinationType === 'UMA_ADDRESS' && !lookupId) {
      const query = sourceType === 'REALTIME_FUNDING' ? { customerId: v.sourceCustomerId as string } : undefined;
      lookupId = (await api.get<{ lookupId: string }>(`/receiver/uma/${encodeURIComponent(String(v.umaAddress))}`, query)).lookupId;
    }
    const body = {
      source: sourceType === 'ACCOUNT' ? { sourceType, accountId: v.sourceAccountId } : { sourceType, customerId: v.sourceCustomerId, currency: String(v.sourceCurrency).toUpperCase() },
      destination,
      lockedCurrencySide: v.lockedCurrencySide,
      lockedCurrencyAmount: v.lockedCurrencyAmount,
      ...(lookupId ? { lookupId } : {}),
      ...(v.description ? { description: v.description } : {}),
      ...(v.remittanceInformation ? { remittanceInformation: v.remittanceInformation } : {}),
      ...(v.purposeOfPayment ? { purposeOfPayment: v.purposeOfPayment } : {}),
      ...(v.scaFactor ? { scaFactor: v.scaFactor } : {}),
      ...(v.immediatelyExecute ? { immediatelyExecute: true } : {}),
    };
    const quote = await api.post<Quote>('/quotes', body, { idempotencyKey });
    navigate(`/quotes/${encodeURIComponent(quote.id)}`);
    return quote;
  };

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>Create a quote</h2>
      <div className="grid">
        <label htmlFor={sourceId}>
          Source
          <select id={sourceId} value={sourceType} onChange={(e) => setSourceType(e.target.value as typeof sourceType)}>
            <option value="ACCOUNT">ACCOUNT: an internal account</option>
            <option value="REALTIME_FUNDING">REALTIME_FUNDING: the customer pays in</option>
          </select>
        </label>
        <label htmlFor={destinationId}>
          Destination
          <select id={destinationId} value={destinationType} onChange={(e) => setDestinationType(e.target.value as typeof destinationType)}>
            <option value="ACCOUNT">ACCOUNT: an internal or external account</option>
            <option value="UMA_ADDRESS">UMA_ADDRESS</option>
          </select>
        </label>
        <CurrencyChoice label="Currency of the locked amount" value={currency} onChange={setCurrency} hint="The source's currency for SENDING, the destination's for RECEIVING." />
      </div>
      <ActionForm fields={fields} submitLabel="Create quote" onSubmit={submit} />
    </section>
  );
}

/** The quotes behind the platform's latest transactions: one page of transactions, those that carry a quoteId. */
function RecentQuotes() {
  const headingId = useId();
  const loaded = useApi<Page<TransactionRow>>('/transactions', { limit: 100 });
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>Quotes of recent transactions</h2>
      <LoadedView loaded={loaded} what="recent transactions">
        {(page) => (
          <DataTable
            rows={page.data.filter((t) => t.quoteId)}
            label="Recent quotes"
            caption="The quotes executed by the platform's latest 100 transactions. Quotes never executed are not here."
            empty="No recent transaction came from a quote."
            columns={[
              { label: 'Quote', cell: (t) => <Id value={t.quoteId} to={`/quotes/${encodeURIComponent(t.quoteId ?? '')}`} /> },
              { label: 'Transaction', cell: (t) => <Id value={t.id} to={`/transactions/${encodeURIComponent(t.id)}`} /> },
              { label: 'Status', cell: (t) => <Status value={t.status} /> },
              { label: 'Sent', cell: (t) => <Amount value={t.sentAmount} /> },
              { label: 'Received', cell: (t) => <Amount value={t.receivedAmount} /> },
              { label: 'Created', cell: (t) => <Time iso={t.createdAt} /> },
            ]}
          />
        )}
      </LoadedView>
    </section>
  );
}

/** One quote: amounts, rate and fees, expiry, payment instructions; execute it, or answer its SCA challenge. */
export function QuoteDetailPage() {
  const quoteId = useRouteParam('quoteId');
  const loaded = useApi<Quote>(`/quotes/${encodeURIComponent(quoteId)}`);
  const mode = useSessionMode();
  const [latest, setLatest] = useState<Quote>();
  const quote = latest?.id === quoteId ? latest : loaded.data;
  return (
    <>
      <h1>Quote</h1>
      <p>
        <Link href="/quotes">All quotes</Link>
      </p>
      <p>
        <Id value={quoteId} />
      </p>
      <LoadedView loaded={loaded} data={quote} what="the quote">
        {(quote) => (
          <>
            <QuoteSummary quote={quote} />
            <QuoteActions
              quote={quote}
              onChanged={(q) => {
                setLatest(q);
                loaded.reload();
              }}
            />
            {quote.paymentInstructions && quote.paymentInstructions.length > 0 && <Instructions list={quote.paymentInstructions} />}
            {quote.rateDetails && (
              <section>
                <h2>Rate details</h2>
                <RateDetails quote={quote} />
              </section>
            )}
            {mode === 'SANDBOX' && (
              <p>
                Sandbox: pay a REALTIME_FUNDING quote in, or move money around, with the <Link href="/sandbox">sandbox tools</Link>.
              </p>
            )}
          </>
        )}
      </LoadedView>
    </>
  );
}

function QuoteSummary({ quote }: { quote: Quote }) {
  const send = (amount: number) => ({ amount, currency: quote.sendingCurrency });
  const receive = (amount: number) => ({ amount, currency: quote.receivingCurrency });
  const expired = Date.parse(quote.expiresAt) < Date.now();
  return (
    <section>
      <dl className="key-values">
        <Entry term="Status">
          <Status value={quote.status} />
        </Entry>
        <Entry term="Sends (fees included)">
          <Amount value={send(quote.totalSendingAmount)} />
        </Entry>
        <Entry term="Receives">
          <Amount value={receive(quote.totalReceivingAmount)} />
        </Entry>
        <Entry term="Exchange rate">
          {quote.exchangeRate} {quote.sendingCurrency.code} per {quote.receivingCurrency.code}
        </Entry>
        <Entry term="Fees included">
          <Amount value={send(quote.feesIncluded)} />
        </Entry>
        <Entry term="Of which platform fees">
          <Amount value={send(quote.platformFeesIncluded)} />
        </Entry>
        <Entry term="Created">
          <Time iso={quote.createdAt} />
        </Entry>
        <Entry term={expired ? 'Expired at' : 'Expires at'}>
          <Time iso={quote.expiresAt} />
        </Entry>
        <Entry term="Source">
          {quote.source.sourceType === 'ACCOUNT' ? (
            <>
              ACCOUNT <Id value={quote.source.accountId} />
            </>
          ) : (
            <>
              REALTIME_FUNDING from <Id value={quote.source.customerId} /> in {quote.source.currency}
            </>
          )}
        </Entry>
        <Entry term="Destination">
          {quote.destination.destinationType === 'ACCOUNT' ? (
            <>
              ACCOUNT <Id value={quote.destination.accountId} />
              {quote.destination.paymentRail ? ` by ${quote.destination.paymentRail}` : ''}
            </>
          ) : (
            <>
              UMA <code>{quote.destination.umaAddress}</code> in {quote.destination.currency}
            </>
          )}
        </Entry>
        <Entry term="Transaction (reserved)">
          <Id value={quote.transactionId} to={`/transactions/${encodeURIComponent(quote.transactionId)}`} />
        </Entry>
        {quote.description && <Entry term="Description">{quote.description}</Entry>}
      </dl>
    </section>
  );
}

function RateDetails({ quote }: { quote: Quote }) {
  const r = quote.rateDetails ?? {};
  const send = (amount: number | undefined) => (amount === undefined ? undefined : { amount, currency: quote.sendingCurrency });
  return (
    <dl className="key-values">
      <Entry term="Service fixed fee">
        <Amount value={send(r.gridApiFixedFee)} />
      </Entry>
      <Entry term="Service variable fee">
        <Amount value={send(r.gridApiVariableFeeAmount)} /> ({r.gridApiVariableFeeRate ?? '—'} %)
      </Entry>
      <Entry term="Counterparty fixed fee">
        <Amount value={r.counterpartyFixedFee === undefined ? undefined : { amount: r.counterpartyFixedFee, currency: quote.receivingCurrency }} />
      </Entry>
      <Entry term="Service multiplier (mSAT per sending unit)">{r.gridApiMultiplier ?? '—'}</Entry>
      <Entry term="Counterparty multiplier (receiving units per mSAT)">{r.counterpartyMultiplier ?? '—'}</Entry>
    </dl>
  );
}

function Instructions({ list }: { list: PaymentInstructions[] }) {
  return (
    <section>
      <h2>Payment instructions</h2>
      <p>Where the customer pays in; include the reference so the payment finds this quote.</p>
      {list.map((p, i) => (
        <article key={i}>
          <header>
            <strong>{p.accountOrWalletInfo.accountType}</strong>
            {p.isPlatformAccount ? ' (the platform’s account)' : ''}
          </header>
          <KeyValues data={p.accountOrWalletInfo} omit={['accountType']} />
          {p.instructionsNotes && <p>{p.instructionsNotes}</p>}
        </article>
      ))}
    </section>
  );
}

function QuoteActions({ quote, onChanged }: { quote: Quote; onChanged: (q: Quote) => void }) {
  const path = `/quotes/${encodeURIComponent(quote.id)}`;
  const executable = quote.status === 'PENDING' && quote.source.sourceType === 'ACCOUNT';
  // The form that acted goes away with the status it acted on: what it did is said here instead.
  const [said, setSaid] = useState<string>();
  const act = async (what: string, answer: Promise<Quote>) => {
    const q = await answer;
    setSaid(`${what}: the quote is now ${q.status}.`);
    onChanged(q);
    return q;
  };
  return (
    <section>
      <h2>Actions</h2>
      {said && <p role="status">{said}</p>}
      {executable && (
        <ActionForm
          fields={[]}
          submitLabel="Execute quote"
          confirm={`Execute this quote? ${formatAmount(quote.totalSendingAmount, quote.sendingCurrency)} leave the source account; it cannot be cancelled.`}
          onSubmit={(_v, { idempotencyKey }) => act('Executed', api.post<Quote>(`${path}/execute`, {}, { idempotencyKey }))}
        />
      )}
      {quote.status === 'PENDING_AUTHORIZATION' && (
        <>
          <p>
            The customer must authorize this quote ({quote.scaChallenge?.factor ?? 'SCA'} challenge, expires <Time iso={quote.scaChallenge?.expiresAt} />). In the sandbox
            the SMS code is 123456.
          </p>
          <ActionForm
            fields={[{ name: 'code', label: 'Authorization code', required: true }]}
            submitLabel="Authorize"
            onSubmit={(v) => act('Authorized', api.post<Quote>(`${path}/authorize`, { code: v.code }))}
          />
        </>
      )}
      {quote.status === 'PENDING' && quote.source.sourceType === 'REALTIME_FUNDING' && <p>This quote executes when the customer’s funds arrive (see the payment instructions).</p>}
      {!executable && quote.status !== 'PENDING_AUTHORIZATION' && quote.status !== 'PENDING' && <p>Nothing to do: the quote is {quote.status}.</p>}
    </section>
  );
}
