import { Link } from 'wouter';
import { api, Page } from '../../api/client';
import { ActionForm } from '../../components/action-form';
import { Value } from '../../components/format';
import { ProblemNotice } from '../../components/problem';
import { useApi } from '../../components/use-api';
import { decimalsOf, formatAmount } from '../../lib/money';
import { DataTable } from '../../components/data-table';

interface Account {
  id: string;
  customerId?: string;
  balance?: { amount: number; currency: { code: string; decimals?: number } };
}

const Result = ({ value }: { value: unknown }) => <Value name="result" value={value} />;

/** The sandbox's simulators (sandbox credentials only; production has none of these routes). */
export function SandboxPage() {
  const accounts = useApi<Page<Account>>('/customers/internal-accounts', { limit: 100 });
  const usd = accounts.data?.data.find((a) => a.balance?.currency.code === 'USD');
  return (
    <>
      <h1>Sandbox tools</h1>
      <p>Nothing here moves real money: these routes exist for sandbox credentials only.</p>
      <section aria-labelledby="fund">
        <h2 id="fund">Fund an internal account</h2>
        <ProblemNotice problem={accounts.error} />
        <ActionForm
          submitLabel="Fund account"
          fields={[
            { name: 'accountId', label: 'Internal account', type: 'select', required: true, options: accounts.data?.data.map((a) => a.id) ?? [], defaultValue: usd?.id },
            { name: 'amount', label: 'Amount (in the account currency)', type: 'amount', decimals: usd?.balance ? decimalsOf(usd.balance.currency) : 2, required: true, placeholder: '100.00' },
          ]}
          onSubmit={async (v, { idempotencyKey }) => {
            const funded = await api.post<Account>(`/sandbox/internal-accounts/${encodeURIComponent(String(v.accountId))}/fund`, { amount: v.amount }, { idempotencyKey });
            accounts.reload();
            return funded;
          }}
          done={(r) => {
            const a = r as Account;
            return <p>Funded: the balance is now {a.balance ? formatAmount(a.balance.amount, a.balance.currency) : '?'}.</p>;
          }}
        />
        <details>
          <summary>Accounts and balances</summary>
          <ul>
            {accounts.data?.data.map((a) => (
              <li key={a.id}>
                <code className="id">{a.id}</code> {a.customerId ?? ''} {a.balance ? formatAmount(a.balance.amount, a.balance.currency) : ''}
              </li>
            ))}
          </ul>
        </details>
      </section>
      <section aria-labelledby="send">
        <h2 id="send">Simulate the sender funding a quote</h2>
        <ActionForm
          submitLabel="Simulate send"
          fields={[
            { name: 'quoteId', label: 'Quote id', required: true },
            { name: 'currencyCode', label: 'Currency code', required: true, placeholder: 'USD' },
          ]}
          onSubmit={(v, { idempotencyKey }) => api.post('/sandbox/send', { quoteId: v.quoteId, currencyCode: v.currencyCode }, { idempotencyKey })}
          done={(r) => <Result value={r} />}
        />
      </section>
      <section aria-labelledby="uma">
        <h2 id="uma">Simulate an incoming UMA payment</h2>
        <ActionForm
          submitLabel="Simulate UMA receive"
          fields={[
            { name: 'senderUmaAddress', label: 'Sender UMA address', required: true, placeholder: '$alice@sandbox.example' },
            { name: 'receiverUmaAddress', label: 'Receiver UMA address (one of your customers)', required: true },
            { name: 'receivingCurrencyCode', label: 'Receiving currency', required: true, defaultValue: 'USD' },
            { name: 'receivingCurrencyAmount', label: 'Amount (in the receiving currency)', type: 'amount', decimals: 2, required: true },
          ]}
          onSubmit={(v) =>
            api.post('/sandbox/uma/receive', {
              senderUmaAddress: v.senderUmaAddress,
              receiverUmaAddress: v.receiverUmaAddress,
              receivingCurrencyCode: v.receivingCurrencyCode,
              receivingCurrencyAmount: v.receivingCurrencyAmount,
            })
          }
          done={(r) => <Result value={r} />}
        />
      </section>
      <section aria-labelledby="cards">
        <h2 id="cards">Card simulations</h2>
        <p>
          Every card network simulation runs from a card's page: <Link href="/cards">open a card</Link>.
        </p>
      </section>
      <section aria-labelledby="magic">
        <h2 id="magic">Magic values</h2>
        <DataTable
          rows={MAGIC}
          label="Magic values"
          empty=""
          rowKey={([where, suffix]) => `${where} ${suffix}`}
          columns={[
            { label: 'Where', cell: ([where]) => where },
            { label: 'Ends in', cell: ([, suffix]) => <code>{suffix}</code> },
            { label: 'Outcome', cell: ([, , outcome]) => outcome },
          ]}
        />
      </section>
    </>
  );
}

/** The sandbox's magic values, from the API's documentation (the last three characters). */
const MAGIC: [string, string, string][] = [
  ['Individual full name, then submit', '001', 'verification stays pending (kycStatus PENDING)'],
  ['Individual full name, then submit', '002', 'rejected'],
  ['Individual full name, then submit', '003', 'RESOLVE_ERRORS: enhanced due diligence fields missing'],
  ['Individual full name, then submit', 'other', 'approved'],
  ['Business registration number', '001 / 002 / other', 'kybStatus PENDING / REJECTED / APPROVED'],
  ['Beneficial owner last name', '001 / 002 / other', 'PENDING / REJECTED / APPROVED'],
  ['Account identifier (beneficiary check)', '102 / 103 / 104', 'NOT_MATCHED / PARTIAL_MATCH / PENDING'],
  ['Account identifier (beneficiary check)', '105 / 106 / 107', '400 invalid account / UNSUPPORTED / CHECKED_BY_RECEIVING_FI'],
  ['Transfer in: external account', '002 / 003', 'fails at once: insufficient funds / account closed'],
  ['Transfer in: external account', '004 / 005', 'bank rejects / pending ~30 s then fails'],
  ['Transfer out or quote destination', '002', 'execution failed'],
  ['Transfer out or quote destination', '003', 'completes after about 6 minutes'],
  ['Transfer out or quote destination', '004 / 005', 'counterparty delivery failed / completes then returned'],
  ['Transfer out or quote destination', '006 / 007', 'user cancellation / payout and refund failed'],
  ['Card merchant descriptor', '002 / 003', 'declined INSUFFICIENT_FUNDS / CARD_PAUSED'],
  ['Card merchant descriptor', '005 / 006', 'pull delayed ~30 s / pull confirmation FAILED'],
  ['Contact verification code', '123456', 'always accepted'],
];
