import { redactTokenPaths } from '@payments/observability';

export const CENSOR = '[redacted]';
const PAN_CENSOR = '[redacted-pan]';
const DEPTH_MAX = 16;

/** Keys (lowercase, without `_` and `-`) whose values are secrets whatever they hold. */
const SECRET_KEYS = new Set([
  'pan', 'cardnumber', 'cvv', 'cvc', 'cvv2', 'pin',
  'secret', 'password', 'passphrase', 'passcode',
  'code', 'otp', 'devicecode', 'usercode', 'verificationcode', 'authcode', 'authorizationcode', 'recoverycode',
  'token', 'apikey', 'authorization', 'proxyauthorization', 'cookie', 'setcookie',
  'privatekey', 'seed', 'mnemonic', 'signingkey', 'secrethashkey',
]);
/** …and keys containing one of these (clientSecret, revealToken, webhookSigningSecret, encryptedPrivateKey…). */
const SECRET_KEY_PARTS = ['secret', 'password', 'passphrase', 'privatekey', 'token', 'otp'];
/** Not secrets though they contain a part above: what identifies a token without being it. */
const NOT_SECRET_KEYS = new Set(['tokenid', 'tokenname', 'tokentype', 'tokencount', 'tokens']);
/** Error properties never logged: a database error's bound values, and the row values PostgreSQL quotes in `detail`. */
const DROPPED_ERROR_KEYS = new Set(['parameters', 'driverError', 'detail', 'where', 'internalQuery']);

export function isSecretKey(key: string): boolean {
  const normalized = key.toLowerCase().replace(/[-_]/g, '');
  if (NOT_SECRET_KEYS.has(normalized)) return false;
  return SECRET_KEYS.has(normalized) || SECRET_KEY_PARTS.some((part) => normalized.includes(part));
}

/** Digit runs of 13 to 19 digits, optionally grouped by spaces or dashes, not inside a longer run. */
const DIGIT_RUN = /(?<![\d])\d(?:[ -]?\d){12,18}(?![\d])/g;

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let n = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) n = n * 2 > 9 ? n * 2 - 9 : n * 2;
    sum += n;
  }
  return sum % 10 === 0;
}

/** A string as a log line may carry it: token path segments cut, card-number-looking digit runs masked. */
export function redactText(text: string): string {
  return redactTokenPaths(text).replace(DIGIT_RUN, (run) => (luhnValid(run.replace(/[ -]/g, '')) ? PAN_CENSOR : run));
}

/**
 * What a logged value may show, at any depth (pino's `redact` takes fixed paths only): values of secret keys
 * censored, strings through redactText, errors as plain objects without their bound parameters, bytes as a length.
 * Pure: the caller's objects are never changed.
 */
export function redactForLog(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= DEPTH_MAX) return '[too deep]';
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  try {
    if (value instanceof Error) return redactError(value, depth, seen);
    if (Buffer.isBuffer(value) || ArrayBuffer.isView(value)) return `[${value.byteLength} bytes]`;
    if (value instanceof Date) return value;
    if (Array.isArray(value)) return value.map((item) => redactForLog(item, depth + 1, seen));
    const json = (value as { toJSON?: () => unknown }).toJSON;
    if (typeof json === 'function') return redactForLog(json.call(value), depth + 1, seen);
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = isSecretKey(key) && item !== undefined && item !== null ? CENSOR : redactForLog(item, depth + 1, seen);
    return out;
  } finally {
    seen.delete(value); // the same object twice side by side is not a cycle
  }
}

/** pino's error shape ({type, message, stack, …own properties}), with `code` kept: on an error it is a machine constant. */
function redactError(error: Error, depth: number, seen: WeakSet<object>): Record<string, unknown> {
  const out: Record<string, unknown> = { type: error.constructor?.name ?? error.name, message: redactText(error.message) };
  if (error.stack) out.stack = redactText(error.stack);
  for (const [key, item] of Object.entries(error)) {
    if (DROPPED_ERROR_KEYS.has(key) || key === 'message' || key === 'stack') continue;
    if (key === 'code' && (typeof item === 'string' || typeof item === 'number')) out.code = item;
    else out[key] = isSecretKey(key) && item !== undefined && item !== null ? CENSOR : redactForLog(item, depth + 1, seen);
  }
  if (error.cause !== undefined) out.cause = redactForLog(error.cause, depth + 1, seen);
  return out;
}
