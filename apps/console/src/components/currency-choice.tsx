import { useId } from 'react';
import { decimalsOf } from '../lib/money';

/**
 * The currency an amount of a form is typed in: outside the ActionForm, because the amount field's decimals follow
 * it (an ActionForm's fields are fixed when it renders).
 */
export function CurrencyChoice({ label, value, onChange, hint }: { label: string; value: string; onChange: (code: string) => void; hint?: string }) {
  const id = useId();
  return (
    <label htmlFor={id}>
      {label}
      <input id={id} value={value} onChange={(e) => onChange(e.target.value.toUpperCase())} maxLength={5} autoComplete="off" aria-describedby={`${id}-hint`} />
      <small id={`${id}-hint`}>
        {hint ? `${hint} ` : ''}Amounts are typed in major units of {value || 'USD'} ({decimalsOf(value || 'USD')} decimal places).
      </small>
    </label>
  );
}
