import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsString, MinLength } from 'class-validator';

/** Most items one array query parameter takes. */
export const QUERY_ARRAY_MAX_ITEMS = 100;

/**
 * An array query parameter, as clients really send one: repeated (`?destinationCurrency=MXN&destinationCurrency=EUR`,
 * the OpenAPI `form`/`explode` style the published document declares) or comma-joined (`?destinationCurrency=MXN,EUR`,
 * as some SDKs serialize arrays), or both at once. Every value is split on commas and trimmed, so the property is a
 * `string[]` whichever form arrived; order is kept. Anything else the query parser builds (an object from
 * `name[key]=…`) is left as is and fails `IsArray`. Empty items (`MXN,,EUR`, `name=`) are refused rather than dropped.
 *
 * Put item rules after it with `{ each: true }`, e.g. `@QueryArray() @Matches(/^[A-Z]{3}$/, { each: true })`; and
 * `@OptionalNotNull()` before it when the parameter is optional. The OpenAPI schema comes out as an array of strings.
 */
export function QueryArray(options: { maxItems?: number } = {}): PropertyDecorator {
  const rules: PropertyDecorator[] = [
    Transform(({ value }) => toQueryArray(value)),
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(options.maxItems ?? QUERY_ARRAY_MAX_ITEMS),
    IsString({ each: true }),
    MinLength(1, { each: true, message: ({ property }) => `${property} must not contain an empty item` }),
  ];
  return (target, propertyName) => rules.forEach((rule) => rule(target, propertyName));
}

/** `"a, b"` → `["a", "b"]`; `["a,b", "c"]` → `["a", "b", "c"]`; anything else unchanged (validation refuses it). */
export function toQueryArray(value: unknown): unknown {
  if (typeof value === 'string') return value.split(',').map((item) => item.trim());
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.flatMap((item: string) => item.split(',').map((part) => part.trim()));
  return value;
}
