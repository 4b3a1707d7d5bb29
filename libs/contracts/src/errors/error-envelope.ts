/** The body of every non-2xx response: `{status, code, message, details?}` (spec error model). */
export interface ErrorEnvelope {
  /**
   * The HTTP status, repeated.
   * @asType integer
   */
  status: number;
  /** Stable machine-readable code, e.g. INVALID_INPUT. */
  code: string;
  /** Human-readable explanation; not meant for parsing. */
  message: string;
  /** Extra data; for INVALID_INPUT, `errors[]` with one entry per field. */
  details?: ErrorDetails;
}

/** `details` of an error: free-form, except that a 400 INVALID_INPUT lists its fields in `errors`. */
export type ErrorDetails = Record<string, unknown> & { errors?: FieldError[] };

// The `Error` schema of the OpenAPI document; code says ErrorEnvelope, as an imported `Error` would shadow the built-in class.
/** The body of every non-2xx response. */
export type Error = ErrorEnvelope;

/** One invalid field of a 400 INVALID_INPUT: `details.errors[]`. */
export interface FieldError {
  /** Dot path of the field, e.g. `address.line1`. */
  field: string;
  message: string;
  constraint?: FieldConstraint;
}

/**
 * The rule the field broke, with its parameter: `maxLength`/`minLength` (integers), `enum` (the allowed values),
 * `pattern` (a JavaScript regular expression), `format` (e.g. `email`, `date`, `iso3166-1-alpha-2`). Any other rule
 * appears under its own name, with its parameter or `true` (e.g. `{"isNotEmpty": true}`, `{"max": 100}`).
 */
export interface FieldConstraint {
  format?: string;
  pattern?: string;
  enum?: string[];
  /**
   * @asType integer
   * @minimum 0
   */
  minLength?: number;
  /**
   * @asType integer
   * @minimum 0
   */
  maxLength?: number;
  [rule: string]: unknown;
}

export function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  const v = value as Partial<ErrorEnvelope> | null;
  return !!v && typeof v === 'object' && typeof v.status === 'number' && typeof v.code === 'string' && typeof v.message === 'string';
}
