import type { FieldError } from '@payments/contracts';

/** An unpaired UTF-16 surrogate: a high one not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/**
 * Why a piece of client text cannot be stored: PostgreSQL text and jsonb refuse U+0000, and an unpaired surrogate has
 * no UTF-8 form (jsonb refuses its `\u` escape; a text column would silently get U+FFFD). `constraint` is the key of
 * `details.errors[].constraint`, as class-validator names its rules.
 */
export function textProblem(text: string): Pick<FieldError, 'message' | 'constraint'> | undefined {
  if (text.includes('\u0000')) return { message: 'contains a NUL character (U+0000)', constraint: { noNulCharacter: true } };
  if (LONE_SURROGATE.test(text)) return { message: 'contains an unpaired UTF-16 surrogate', constraint: { wellFormedUnicode: true } };
  return undefined;
}

/** The text with NUL and unpaired surrogates shown as U+FFFD, so a field name can be echoed back safely. */
export function printable(text: string): string {
  return text.replaceAll('\u0000', '\uFFFD').replace(LONE_SURROGATES, '\uFFFD');
}
