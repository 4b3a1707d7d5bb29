/** The error body of every non-2xx response: `{status, code, message, details?}` (spec error model). */
export interface ErrorEnvelope {
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** One field of a 400 INVALID_INPUT: `details.errors[]`. */
export interface FieldError {
  field: string;
  message: string;
  constraint?: Record<string, unknown>;
}

export function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  const v = value as Partial<ErrorEnvelope> | null;
  return !!v && typeof v === 'object' && typeof v.status === 'number' && typeof v.code === 'string' && typeof v.message === 'string';
}
