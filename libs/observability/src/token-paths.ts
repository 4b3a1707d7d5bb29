/**
 * Paths whose last segments are credentials, not names: the card reveal link (/card-reveal/{token}), the hosted KYC
 * page (/kyc/{token}) and agent device codes (/agents/device-codes/{code}/…). Matched case-insensitively and across
 * doubled slashes, more widely than the router serves them: a span of a misspelt request must not keep the secret either.
 */
const TOKEN_PATH = /(\/(?:card-reveal|kyc|agents\/+device-codes)\/+)([^/?#\s"'<>]+)/gi;

export const REDACTED_SEGMENT = '[redacted]';

/** `text` with the credential segment of every token path in it replaced: what spans and log lines may carry. */
export function redactTokenPaths(text: string): string {
  return text.replace(TOKEN_PATH, `$1${REDACTED_SEGMENT}`);
}
