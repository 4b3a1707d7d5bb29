import { Link, useLocation } from 'wouter';
import { api, call } from '../../api/client';
import { ActionForm } from '../../components/action-form';
import { customerBody } from '../../lib/customer-body';
import { Transaction, TRANSACTION_COLUMNS } from './transactions';
import { Amount, Id, KeyValues, Status, Time } from '../../components/format';
import { ListView } from '../../components/list-view';
import { ProblemNotice } from '../../components/problem';
import { useApi } from '../../components/use-api';
import { LoadedView } from '../../components/loaded-view';
import { useRouteParam } from '../../components/route-param';
import { CUSTOMER_TYPES } from '../../lib/values';

interface Customer {
  id: string;
  platformCustomerId?: string;
  customerType: string;
  fullName?: string;
  businessInfo?: { legalName?: string };
  email?: string;
  kycStatus?: string;
  kybStatus?: string;
  region?: string;
  createdAt?: string;
}

const displayName = (c: Customer) => c.fullName ?? c.businessInfo?.legalName ?? '—';

export function CustomersPage() {
  return (
    <>
      <h1>Customers</h1>
      <p>
        <Link href="/customers/new" className="button-link">
          New customer
        </Link>
      </p>
      <ListView<Customer>
        path="/customers"
        noun="customers"
        filters={[
          { name: 'platformCustomerId', label: 'Your customer id', placeholder: 'exact id' },
          { name: 'umaAddress', label: 'UMA address', placeholder: '$name@domain' },
          { name: 'customerType', label: 'Type', options: CUSTOMER_TYPES },
          { name: 'createdAfter', label: 'Created after', placeholder: '2026-01-01T00:00:00Z' },
        ]}
        columns={[
          { label: 'Customer', cell: (c) => <Id value={c.id} to={`/customers/${encodeURIComponent(c.id)}`} /> },
          { label: 'Name', cell: displayName },
          { label: 'Your id', field: 'platformCustomerId' },
          { label: 'Type', field: 'customerType' },
          { label: 'KYC/KYB', cell: (c) => <Status value={c.kycStatus ?? c.kybStatus} /> },
          { label: 'Created', cell: (c) => <Time iso={c.createdAt} /> },
        ]}
      />
    </>
  );
}

export function CustomerNewPage() {
  const [, navigate] = useLocation();
  return (
    <>
      <h1>New customer</h1>
      <p>
        Individuals need a full name; businesses a legal name. Production KYC/KYB needs the birth date, nationality and address (and documents for
        businesses) before a submission is complete. In the sandbox, a full name ending in <code>001</code>, <code>002</code> or <code>003</code> makes the
        verification stay pending, be rejected or ask for more.
      </p>
      <ActionForm
        submitLabel="Create customer"
        fields={[
          { name: 'customerType', label: 'Type', type: 'select', options: CUSTOMER_TYPES, required: true, defaultValue: 'INDIVIDUAL' },
          { name: 'platformCustomerId', label: 'Your customer id' },
          { name: 'fullName', label: 'Full name (individual)' },
          { name: 'birthDate', label: 'Birth date (individual)', type: 'date' },
          { name: 'nationality', label: 'Nationality (individual)', placeholder: 'US' },
          { name: 'email', label: 'Email', type: 'email' },
          { name: 'legalName', label: 'Legal name (business)' },
          { name: 'registrationNumber', label: 'Registration number (business)' },
          { name: 'taxId', label: 'Tax id (business)' },
          { name: 'incorporatedOn', label: 'Incorporated on (business)', type: 'date' },
          { name: 'line1', label: 'Address line 1' },
          { name: 'line2', label: 'Address line 2' },
          { name: 'city', label: 'City' },
          { name: 'state', label: 'State or region' },
          { name: 'postalCode', label: 'Postal code' },
          { name: 'country', label: 'Country', placeholder: 'US' },
        ]}
        onSubmit={async (values, { idempotencyKey }) => {
          const created = await api.post<Customer>('/customers', customerBody(values), { idempotencyKey });
          navigate(`/customers/${encodeURIComponent(created.id)}`);
          return created;
        }}
      />
    </>
  );
}

interface Verification {
  id: string;
  verificationStatus: string;
  errors?: { resourceId?: string; type: string; field?: string; reason?: string }[];
  createdAt?: string;
}

export function CustomerDetailPage() {
  const id = useRouteParam('customerId');
  const customer = useApi<Customer & Record<string, unknown>>(`/customers/${encodeURIComponent(id)}`);
  const verifications = useApi<{ data: Verification[] }>('/verifications', { customerId: id });
  return (
    <>
      <h1>Customer</h1>
      <p>
        <Id value={id} />
      </p>
      <LoadedView loaded={customer} what="the customer">
        {(data) => (
          <>
            <h2>{displayName(data)}</h2>
            <KeyValues data={data} />
            <section aria-labelledby="kyc">
              <h2 id="kyc">KYC/KYB</h2>
              <p>
                Status: <Status value={data.kycStatus ?? data.kybStatus} />
              </p>
              <ProblemNotice problem={verifications.error} />
              {verifications.data?.data.map((v) => (
                <article key={v.id}>
                  <p>
                    <Id value={v.id} /> <Status value={v.verificationStatus} /> <Time iso={v.createdAt} />
                  </p>
                  {v.errors && v.errors.length > 0 && (
                    <ul>
                      {v.errors.map((e, i) => (
                        <li key={i}>
                          {e.type}
                          {e.field ? ` (${e.field})` : ''}: {e.reason ?? ''}
                        </li>
                      ))}
                    </ul>
                  )}
                </article>
              ))}
              <ActionForm
                submitLabel="Submit for verification"
                fields={[]}
                onSubmit={async () => {
                  const v = await api.post<Verification>('/verifications', { customerId: id });
                  customer.reload();
                  verifications.reload();
                  return v;
                }}
                done={(v) => (
                  <p>
                    Submitted: <Status value={(v as Verification).verificationStatus} />
                  </p>
                )}
              />
            </section>
            <section aria-labelledby="documents">
              <h2 id="documents">Documents</h2>
              <ListView
                path="/documents"
                fixed={{ documentHolder: id }}
                inUrl={false}
                noun="documents"
                columns={[
                  { label: 'Document', field: 'id' },
                  { label: 'Type', field: 'documentType' },
                  { label: 'File', field: 'fileName' },
                  { label: 'Status', field: 'status' },
                  { label: 'Uploaded', field: 'createdAt' },
                ]}
              />
              <h3>Upload a document</h3>
              <ActionForm
                submitLabel="Upload"
                fields={[
                  { name: 'documentType', label: 'Document type', required: true, placeholder: 'PASSPORT' },
                  { name: 'country', label: 'Issuing country', placeholder: 'US' },
                  { name: 'documentNumber', label: 'Document number' },
                  { name: 'file', label: 'File (PDF, JPEG or PNG, at most 10 MB)', type: 'file', required: true },
                ]}
                onSubmit={async (values) => {
                  const form = new FormData();
                  form.set('documentHolder', id);
                  for (const name of ['documentType', 'country', 'documentNumber']) if (values[name]) form.set(name, String(values[name]));
                  if (values.file instanceof File) form.set('file', values.file);
                  return call('POST', '/documents', { form });
                }}
                done={() => <p>Uploaded. Refresh the list above.</p>}
              />
            </section>
            <section aria-labelledby="accounts">
              <h2 id="accounts">Internal accounts</h2>
              <ListView<{ id: string; type?: string; status?: string; balance?: { amount: number; currency: { code: string } } }>
                path="/customers/internal-accounts"
                fixed={{ customerId: id }}
                inUrl={false}
                noun="internal accounts"
                columns={[
                  { label: 'Account', field: 'id' },
                  { label: 'Type', field: 'type' },
                  { label: 'Available', cell: (a) => <Amount value={a.balance} /> },
                  { label: 'Status', field: 'status' },
                ]}
              />
              <h2>External accounts</h2>
              <ListView
                path="/customers/external-accounts"
                fixed={{ customerId: id }}
                inUrl={false}
                noun="external accounts"
                columns={[
                  { label: 'Account', field: 'id' },
                  { label: 'Currency', field: 'currency' },
                  { label: 'Status', field: 'status' },
                ]}
              />
            </section>
            <section aria-labelledby="transactions">
              <h2 id="transactions">Transactions</h2>
              <ListView<Transaction> path="/transactions" fixed={{ customerId: id }} inUrl={false} pageSize={10} noun="transactions" columns={TRANSACTION_COLUMNS} />
              <p>
                <Link href={`/transactions?customerId=${encodeURIComponent(id)}`}>All of this customer's transactions, with filters</Link>
              </p>
            </section>
          </>
        )}
      </LoadedView>
    </>
  );
}
