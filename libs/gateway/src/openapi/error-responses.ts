import { ERROR_STATUS, ErrorStatus } from '@payments/contracts';


const MEANING: Record<ErrorStatus, string> = {
  400: 'Invalid request: the body is not JSON or a field breaks a rule (`details.errors[]` names each field).',
  401: 'Missing or wrong credentials.',
  403: 'The credential lacks the permission this operation needs.',
  404: 'No such resource for this platform and mode.',
  405: 'The path exists, but not with this method.',
  409: 'Conflicts with the current state, or an Idempotency-Key still in use or reused with a different request.',
  410: 'The resource existed and was deleted.',
  413: 'The request body is too large.',
  415: 'The request body is not application/json, or uses an unsupported encoding.',
  422: 'Well-formed but refused.',
  423: 'Locked after too many failed attempts.',
  424: 'A counterparty this operation depends on failed.',
  429: 'Too many requests; retry after the number of seconds in `Retry-After`.',
  500: 'Unexpected error; the body reveals nothing internal.',
  501: 'Not implemented in this deployment.',
  503: 'A service behind the gateway, its database or its bus is briefly unavailable; nothing was decided: the same request is safe to retry (a POST with its key) after the seconds in `Retry-After`.',
};

const HEADERS: Partial<Record<ErrorStatus, Record<string, { description: string; schema: object }>>> = {
  401: { 'WWW-Authenticate': { description: 'The authentication scheme to use.', schema: { type: 'string' } } },
  429: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } } },
  503: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } } },
};

/** Description of one error response; the codes come from the one table of codes (libs/contracts). */
export function errorResponse(status: ErrorStatus): { description: string; headers?: Record<string, { description: string; schema: object }> } {
  const codes = Object.entries(ERROR_STATUS)
    .filter(([, codeStatus]) => codeStatus === status)
    .map(([code]) => code);
  const description = codes.length ? `${MEANING[status]} Codes this API uses with ${status}: ${codes.join(', ')}.` : MEANING[status];
  return HEADERS[status] ? { description, headers: HEADERS[status] } : { description };
}
