import type { FieldError } from '@payments/contracts';
import { AccountInfo, Checksums, Format } from './field-rule';

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Errors of a flat object of string fields at `path`: unknown keys (anything not in `formats` or `otherKeys`), missing
 * required ones, non-strings, and each present value's format. Nested objects are the caller's (`otherKeys`).
 */
export function stringFieldErrors(
  object: AccountInfo,
  formats: Readonly<Record<string, Format>>,
  needed: ReadonlySet<string>,
  path: string,
  otherKeys: readonly string[] = [],
): FieldError[] {
  const errors: FieldError[] = [];
  for (const key of Object.keys(object)) {
    if (!(key in formats) && !otherKeys.includes(key)) errors.push({ field: `${path}.${key}`, message: `${key} is not a known field here` });
  }
  for (const [key, format] of Object.entries(formats)) {
    const error = valueError(object, key, format, needed.has(key), path);
    if (error) errors.push(error);
  }
  for (const key of needed) {
    if (!(key in formats) && !otherKeys.includes(key) && object[key] === undefined) errors.push({ field: `${path}.${key}`, message: `${key} is required` });
  }
  return errors;
}

/** One field: missing when required, a string, in its format, and (when enforced) with its checksum. */
export function valueError(object: AccountInfo, key: string, format: Format, isRequired: boolean, path: string, checksums: Checksums = 'ENFORCED'): FieldError | undefined {
  const value = object[key];
  const field = `${path}.${key}`;
  if (value === undefined) return isRequired ? { field, message: `${key} is required` } : undefined;
  if (typeof value !== 'string') return { field, message: `${key} must be a string` };
  const problem = format.check(value, object) ?? (checksums === 'ENFORCED' ? format.checksum?.(value, object) : undefined);
  return problem === undefined ? undefined : { field, message: `${key} ${problem}`, ...(format.constraint ? { constraint: { ...format.constraint } } : {}) };
}
