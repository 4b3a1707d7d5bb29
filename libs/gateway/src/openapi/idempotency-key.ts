/**
 * The gateway's idempotency interceptor serves every POST; the document generator adds this header parameter, the
 * replay marker on success and the 409 of a key in use or reused to every POST operation.
 */
export const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'Makes a retry safe: for at least 24 h, the same key returns the first response with `Idempotent-Replayed: true`.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
};

export const REPLAYED_HEADER = { description: 'Present, `true`, when this is a stored response replayed.', schema: { type: 'string', enum: ['true'] } };

/** Appended to the header's description on operations that declare `shownOnce`: the stored answer keeps no secret. */
export const SHOWN_ONCE_NOTE = (fields: readonly string[]) =>
  `The answer's ${fields.map((f) => `\`${f}\``).join(', ')} ${fields.length > 1 ? 'are' : 'is'} shown once: it is not kept, and a replay answers without it.`;
