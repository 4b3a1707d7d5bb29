import { FormEvent, ReactNode, useId, useRef, useState } from 'react';
import type { ApiProblem } from '../api/client';
import { majorToMinor } from '../lib/money';
import { SubmissionKey } from '../lib/submission-key';
import { ProblemNotice } from './problem';
import { asProblem } from './use-api';

export interface Field {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'date' | 'select' | 'amount' | 'number' | 'checkbox' | 'textarea' | 'password' | 'file' | 'url';
  options?: readonly string[];
  required?: boolean;
  /** For amounts: the decimals of the currency (the value sent is in minor units). */
  decimals?: number;
  placeholder?: string;
  defaultValue?: string;
  hint?: string;
}

export type FormValues = Record<string, string | number | boolean | File | undefined>;

interface ActionFormProps {
  fields: Field[];
  submitLabel: string;
  /**
   * Sends the values (amounts already in minor units); what it answers is shown by `done`. `idempotencyKey` is this
   * submission's: a POST that moves money passes it on (api.post), so sending the same values again after a network
   * error or timeout is the same request, not a second one.
   */
  onSubmit: (values: FormValues, submission: { idempotencyKey: string }) => Promise<unknown>;
  done?: (result: unknown) => ReactNode;
  /** Say what happens before it happens, for destructive actions. */
  confirm?: string;
  className?: string;
}

/**
 * A form that calls the API: each field labelled, amounts typed in major units, the button busy while the call runs,
 * and the API's own error message shown when it refuses (the form keeps what was typed).
 */
export function ActionForm({ fields, submitLabel, onSubmit, done, confirm, className }: ActionFormProps) {
  const id = useId();
  const [problem, setProblem] = useState<ApiProblem>();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ value: unknown }>();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const form = useRef<HTMLFormElement>(null);
  const key = useRef(new SubmissionKey());

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (confirm && !window.confirm(confirm)) return;
    const data = new FormData(event.currentTarget);
    const values: FormValues = {};
    const errors: Record<string, string> = {};
    for (const f of fields) {
      const raw = data.get(f.name);
      if (f.type === 'checkbox') values[f.name] = raw === 'on';
      else if (f.type === 'file') values[f.name] = raw instanceof File && raw.size > 0 ? raw : undefined;
      else {
        const text = String(raw ?? '').trim();
        if (!text) {
          if (f.required) errors[f.name] = 'required';
          continue;
        }
        if (f.type === 'amount') {
          const parsed = majorToMinor(text, f.decimals ?? 2);
          if ('error' in parsed) errors[f.name] = parsed.error;
          else values[f.name] = parsed.minor;
        } else if (f.type === 'number') values[f.name] = Number(text);
        else values[f.name] = text;
      }
    }
    setFieldErrors(errors);
    if (Object.keys(errors).length > 0) return;
    setBusy(true);
    setProblem(undefined);
    try {
      setResult({ value: await onSubmit(values, { idempotencyKey: key.current.for(values) }) });
      key.current.succeeded();
    } catch (error) {
      setProblem(asProblem(error));
      setResult(undefined);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form ref={form} onSubmit={submit} className={className} noValidate>
      {fields.map((f) => {
        const inputId = `${id}-${f.name}`;
        const error = fieldErrors[f.name];
        const described = error ? `${inputId}-error` : f.hint ? `${inputId}-hint` : undefined;
        const common = { id: inputId, name: f.name, required: f.required, 'aria-invalid': error ? true : undefined, 'aria-describedby': described };
        if (f.type === 'checkbox') {
          return (
            <label key={f.name} htmlFor={inputId}>
              <input type="checkbox" {...common} defaultChecked={f.defaultValue === 'true'} /> {f.label}
            </label>
          );
        }
        return (
          <label key={f.name} htmlFor={inputId}>
            {f.label}
            {f.required ? ' *' : ''}
            {f.type === 'select' ? (
              <select {...common} defaultValue={f.defaultValue ?? ''}>
                {!f.required && <option value="">—</option>}
                {f.options?.map((o) => (
                  <option key={o} value={o}>
                    {o}
                  </option>
                ))}
              </select>
            ) : f.type === 'textarea' ? (
              <textarea {...common} defaultValue={f.defaultValue} placeholder={f.placeholder} rows={4} />
            ) : (
              <input
                {...common}
                type={f.type === 'amount' ? 'text' : (f.type ?? 'text')}
                inputMode={f.type === 'amount' ? 'decimal' : undefined}
                defaultValue={f.defaultValue}
                placeholder={f.placeholder}
                autoComplete={f.type === 'password' ? 'off' : undefined}
              />
            )}
            {error && (
              <small id={`${inputId}-error`} className="field-error">
                {f.label}: {error}
              </small>
            )}
            {!error && f.hint && <small id={`${inputId}-hint`}>{f.hint}</small>}
          </label>
        );
      })}
      <ProblemNotice problem={problem} />
      <button type="submit" aria-busy={busy} disabled={busy}>
        {submitLabel}
      </button>
      {result && done && <div role="status">{done(result.value)}</div>}
    </form>
  );
}
