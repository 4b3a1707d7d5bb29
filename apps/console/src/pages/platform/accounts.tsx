import { Link, useLocation } from 'wouter';
import { api } from '../../api/client';
import { ActionForm } from '../../components/action-form';
import { Amount, Id, Status, Time } from '../../components/format';
import { Filter, ListView } from '../../components/list-view';

interface InternalAccount {
  id: string;
  customerId?: string;
  type?: string;
  status?: string;
  balance?: { amount: number; currency: { code: string; decimals?: number } };
  totalBalance?: { amount: number; currency: { code: string; decimals?: number } };
  updatedAt?: string;
}

interface ExternalAccount {
  id: string;
  customerId?: string;
  currency?: string;
  status?: string;
  accountInfo?: { accountType?: string; accountNumber?: string; bankName?: string };
  beneficiaryVerificationStatus?: string;
  createdAt?: string;
}

/** Both lists of customers' accounts filter alike. */
const ACCOUNT_FILTERS: Filter[] = [
  { name: 'customerId', label: 'Customer id' },
  { name: 'currency', label: 'Currency', placeholder: 'USD' },
];

const customerLink = (customerId: string | undefined) => <Id value={customerId} to={customerId ? `/customers/${encodeURIComponent(customerId)}` : undefined} />;

export function AccountsPage() {
  return (
    <>
      <h1>Internal accounts</h1>
      <h2>Customers' accounts</h2>
      <ListView<InternalAccount>
        path="/customers/internal-accounts"
        noun="internal accounts"
        filters={ACCOUNT_FILTERS}
        columns={[
          { label: 'Account', cell: (a) => <Id value={a.id} /> },
          { label: 'Customer', cell: (a) => customerLink(a.customerId) },
          { label: 'Type', field: 'type' },
          { label: 'Available', cell: (a) => <Amount value={a.balance} /> },
          { label: 'Total', cell: (a) => <Amount value={a.totalBalance} /> },
          { label: 'Updated', cell: (a) => <Time iso={a.updatedAt} /> },
        ]}
      />
      <h2>The platform's own accounts</h2>
      <ListView<InternalAccount>
        path="/platform/internal-accounts"
        noun="platform accounts"
        inUrl={false}
        paged={false}
        columns={[
          { label: 'Account', cell: (a) => <Id value={a.id} /> },
          { label: 'Type', field: 'type' },
          { label: 'Available', cell: (a) => <Amount value={a.balance} /> },
          { label: 'Total', cell: (a) => <Amount value={a.totalBalance} /> },
        ]}
      />
    </>
  );
}

export function ExternalAccountsPage() {
  return (
    <>
      <h1>External accounts</h1>
      <p>
        <Link href="/external-accounts/new" className="button-link">
          New external account
        </Link>
      </p>
      <ListView<ExternalAccount>
        path="/customers/external-accounts"
        noun="external accounts"
        filters={ACCOUNT_FILTERS}
        columns={[
          { label: 'Account', cell: (a) => <Id value={a.id} /> },
          { label: 'Customer', cell: (a) => customerLink(a.customerId) },
          { label: 'Currency', field: 'currency' },
          { label: 'Kind', cell: (a) => a.accountInfo?.accountType ?? '—' },
          { label: 'Number', cell: (a) => a.accountInfo?.accountNumber ?? '—' },
          { label: 'Status', cell: (a) => <Status value={a.status} /> },
          { label: 'Beneficiary check', cell: (a) => a.beneficiaryVerificationStatus ?? '—' },
        ]}
      />
      <h2>The platform's external accounts</h2>
      <ListView<ExternalAccount>
        path="/platform/external-accounts"
        noun="platform external accounts"
        inUrl={false}
        columns={[
          { label: 'Account', cell: (a) => <Id value={a.id} /> },
          { label: 'Currency', field: 'currency' },
          { label: 'Status', cell: (a) => <Status value={a.status} /> },
        ]}
      />
    </>
  );
}

/**
 * A US bank account from labelled fields (the common case), or any account type the API takes as its `accountInfo`
 * JSON. In the sandbox the account number's last digits choose the outcome of transfers to it (see the sandbox tools).
 */
export function ExternalAccountNewPage() {
  const [, navigate] = useLocation();
  return (
    <>
      <h1>New external account</h1>
      <ActionForm
        submitLabel="Add external account"
        fields={[
          { name: 'customerId', label: 'Customer id', required: true },
          { name: 'currency', label: 'Currency', required: true, defaultValue: 'USD' },
          { name: 'accountNumber', label: 'Account number (US bank)' },
          { name: 'routingNumber', label: 'Routing number (US bank)', defaultValue: '021000021' },
          { name: 'bankAccountType', label: 'Account type (US bank)', type: 'select', options: ['CHECKING', 'SAVINGS'], defaultValue: 'CHECKING' },
          { name: 'bankName', label: 'Bank name' },
          { name: 'beneficiaryName', label: 'Beneficiary full name' },
          { name: 'line1', label: 'Beneficiary address line 1' },
          { name: 'city', label: 'Beneficiary city' },
          { name: 'postalCode', label: 'Beneficiary postal code' },
          { name: 'country', label: 'Beneficiary country', defaultValue: 'US' },
          { name: 'accountInfo', label: 'Or: accountInfo as JSON (any account type; overrides the US bank fields)', type: 'textarea' },
        ]}
        onSubmit={async (v, { idempotencyKey }) => {
          let accountInfo: unknown;
          if (v.accountInfo) {
            try {
              accountInfo = JSON.parse(String(v.accountInfo));
            } catch {
              throw new Error('accountInfo is not valid JSON');
            }
          } else {
            accountInfo = {
              accountType: 'USD_ACCOUNT',
              accountNumber: v.accountNumber,
              routingNumber: v.routingNumber,
              bankAccountType: v.bankAccountType,
              bankName: v.bankName,
              beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: v.beneficiaryName, address: { line1: v.line1, city: v.city, postalCode: v.postalCode, country: v.country } },
            };
          }
          const created = await api.post<ExternalAccount>('/customers/external-accounts', { customerId: v.customerId, currency: v.currency, accountInfo }, { idempotencyKey });
          navigate(`/external-accounts?customerId=${encodeURIComponent(String(v.customerId))}`);
          return created;
        }}
      />
    </>
  );
}
