import { useId, useState } from 'react';
import { ActionForm } from '../../components/action-form';
import { DOCUMENT_TYPES, KycReview, VERIFICATION_ERROR_TYPES, VerificationError } from './types';

interface Row {
  key: number;
  resourceId: string;
  type: string;
  field: string;
  acceptedDocumentTypes: string;
  reason: string;
}

/**
 * The changes a reviewer asks for, one row each (the entries of the verification's `errors`, as the platform sees
 * them), and the reviewer's own reason for the audit log. Rows are added and removed freely; at least one is sent.
 */
export function RequestChangesForm({ review, onSubmit }: { review: KycReview; onSubmit: (body: { reason: string; errors: VerificationError[] }) => Promise<unknown> }) {
  const id = useId();
  const resources = [
    { id: review.customer.id, label: `the customer (${review.customer.id})` },
    ...review.beneficialOwners.map((o) => ({ id: o.id, label: `owner ${[o.personalInfo.firstName, o.personalInfo.lastName].filter(Boolean).join(' ')} (${o.id})` })),
  ];
  const blank = (key: number): Row => ({ key, resourceId: review.customer.id, type: 'INVALID_FIELD', field: '', acceptedDocumentTypes: '', reason: '' });
  const [rows, setRows] = useState<Row[]>([blank(0)]);
  const [next, setNext] = useState(1);
  const update = (key: number, patch: Partial<Row>) => setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  const toErrors = (): VerificationError[] =>
    rows.map((r, i) => {
      if (!r.reason.trim()) throw new Error(`change ${i + 1}: say what the platform must fix (its reason)`);
      const docs = r.acceptedDocumentTypes
        .split(/[\s,]+/)
        .map((d) => d.trim().toUpperCase())
        .filter(Boolean);
      return {
        resourceId: r.resourceId,
        type: r.type as VerificationError['type'], // chosen from VERIFICATION_ERROR_TYPES; the API refuses anything else
        ...(r.field.trim() ? { field: r.field.trim() } : {}),
        ...(docs.length ? { acceptedDocumentTypes: docs as VerificationError['acceptedDocumentTypes'] } : {}),
        reason: r.reason.trim(),
      };
    });

  return (
    <>
      {rows.map((r, i) => {
        const f = (name: string) => `${id}-${r.key}-${name}`;
        return (
          <fieldset key={r.key}>
            <legend>Change {i + 1}</legend>
            <label htmlFor={f('resource')}>
              Resource to fix
              <select id={f('resource')} value={r.resourceId} onChange={(e) => update(r.key, { resourceId: e.target.value })}>
                {resources.map((res) => (
                  <option key={res.id} value={res.id}>
                    {res.label}
                  </option>
                ))}
              </select>
            </label>
            <label htmlFor={f('type')}>
              Error type
              <select id={f('type')} value={r.type} onChange={(e) => update(r.key, { type: e.target.value })}>
                {VERIFICATION_ERROR_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
            </label>
            <label htmlFor={f('field')}>
              Field (optional)
              <input id={f('field')} value={r.field} placeholder="e.g. address or businessInfo.taxId" onChange={(e) => update(r.key, { field: e.target.value })} />
            </label>
            <label htmlFor={f('docs')}>
              Accepted document types (optional)
              <input
                id={f('docs')}
                value={r.acceptedDocumentTypes}
                placeholder="e.g. PASSPORT, NATIONAL_ID"
                aria-describedby={f('docs-hint')}
                onChange={(e) => update(r.key, { acceptedDocumentTypes: e.target.value })}
              />
              <small id={f('docs-hint')}>For a missing document, separated by commas; one of {DOCUMENT_TYPES.join(', ')}.</small>
            </label>
            <label htmlFor={f('reason')}>
              What to fix (shown to the platform) *
              <input id={f('reason')} value={r.reason} required onChange={(e) => update(r.key, { reason: e.target.value })} />
            </label>
            {rows.length > 1 && (
              <button type="button" className="secondary outline" onClick={() => setRows((rs) => rs.filter((x) => x.key !== r.key))}>
                Remove change {i + 1}
              </button>
            )}
          </fieldset>
        );
      })}
      <p>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            setRows((rs) => [...rs, blank(next)]);
            setNext((n) => n + 1);
          }}
        >
          Add a change
        </button>
      </p>
      <ActionForm
        submitLabel="Request changes"
        fields={[{ name: 'reason', label: 'Your reason (for operators, the audit log)', type: 'textarea', required: true }]}
        onSubmit={async (v) => onSubmit({ reason: String(v.reason), errors: toErrors() })}
      />
    </>
  );
}
