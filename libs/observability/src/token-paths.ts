/**
 * Paths whose last segments are credentials, not names: the card reveal link (/card-reveal/{token}), the hosted KYC
 * page (/kyc/{token}) and agent device codes (/agents/device-codes/{code}/…). Express matches them case-insensitively
 * and tolerates doubled slashes, so this does too.
 */
const TOKEN_PATH = /(\/(?:card-reveal|kyc|agents\/+device-codes)\/+)([^/?#\s"'<>]+)/gi;

export const REDACTED_SEGMENT = '[redacted]';

/** `text` with the credential segment of every token path in it replaced: what spans and log lines may carry. */
export function redactTokenPaths(text: string): string {
  return text.replace(TOKEN_PATH, `$1${REDACTED_SEGMENT}`);
}
