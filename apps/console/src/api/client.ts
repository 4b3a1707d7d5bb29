/** The API's error envelope, as the console shows it: the status, the code and the API's own message. */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** Set by the session when it starts: every write sends it back as `X-CSRF-Token`. */
let csrfToken: string | undefined;
/** Called when the server says the session is gone (expired, signed out elsewhere, credential revoked). */
let onSignedOut: () => void = () => undefined;

export function useSessionSecrets(token: string | undefined, signedOut: () => void): void {
  csrfToken = token;
  onSignedOut = signedOut;
}

export type Query = Record<string, string | number | boolean | undefined | null | readonly string[]>;

export function withQuery(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) for (const v of value) params.append(key, v);
    else params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * One call of the API through the console's session (`/console/api/*`, sent on as the signed-in credential). Writes
 * carry the CSRF token and every POST an Idempotency-Key: the caller's (ActionForm keeps one per submission, reused
 * when the same values are sent again), else a fresh one.
 */
export async function call<T = unknown>(method: string, path: string, options: { query?: Query; body?: unknown; form?: FormData; idempotencyKey?: string; session?: boolean } = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (method !== 'GET' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  if (method === 'POST') headers['Idempotency-Key'] = options.idempotencyKey ?? crypto.randomUUID();
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const url = options.session ? path : withQuery(`/console/api${path}`, options.query);
  let response: Response;
  try {
    response = await fetch(url, { method, headers, body, credentials: 'same-origin' });
  } catch {
    throw new ApiProblem(0, 'NETWORK', 'the server could not be reached; check your connection and try again');
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const parsed = text ? safeJson(text) : undefined;
  if (response.ok) return parsed as T;
  const envelope = (parsed ?? {}) as { code?: string; message?: string; details?: unknown };
  if (response.status === 401) onSignedOut();
  throw new ApiProblem(response.status, envelope.code ?? `HTTP_${response.status}`, envelope.message ?? (response.statusText || 'the request failed'), envelope.details);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const api = {
  get: <T = unknown>(path: string, query?: Query) => call<T>('GET', path, { query }),
  /** `idempotencyKey`: the form's (ActionForm), so a retried submission is the same request; else a fresh one. */
  post: <T = unknown>(path: string, body?: unknown, options: { idempotencyKey?: string } = {}) => call<T>('POST', path, { body: body ?? {}, ...options }),
  patch: <T = unknown>(path: string, body: unknown) => call<T>('PATCH', path, { body }),
  put: <T = unknown>(path: string, body: unknown) => call<T>('PUT', path, { body }),
  delete: <T = unknown>(path: string) => call<T>('DELETE', path),
};

/** A page of a list, as every list of the API answers. */
export interface Page<T> {
  data: T[];
  hasMore?: boolean;
  nextCursor?: string;
  totalCount?: number;
}
