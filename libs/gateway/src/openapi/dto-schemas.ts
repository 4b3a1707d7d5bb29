import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage, IS_OPTIONAL, MATCHES, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { targetConstructorToSchema, validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { defaultConverters } from 'class-validator-jsonschema/build/defaultConverters';
import type { IOptions } from 'class-validator-jsonschema/build/options';

export type SchemaMap = Record<string, Record<string, unknown>>;

export const SCHEMA_REF_PREFIX = '#/components/schemas/';

// class-transformer's storage resolves `@Type(() => Dto)`, so nested arrays of DTOs become `$ref`s.
const OPTIONS: Partial<IOptions> = {
  refPointerPrefix: SCHEMA_REF_PREFIX,
  classTransformerMetadataStorage: defaultMetadataStorage,
  additionalConverters: {
    [ValidationTypes.CONDITIONAL_VALIDATION]: (meta) => nullableWhenSkipped(meta),
    [MATCHES]: (meta) => matchesToPattern(meta),
    [ValidationTypes.CUSTOM_VALIDATION]: (meta, options) => customToSchema(meta) ?? (defaultConverters[ValidationTypes.CUSTOM_VALIDATION] as Function)(meta, options),
  },
};

/** Schemas of the project's own validators (libs/contracts/src/validators.ts), known by their registered name. */
const CUSTOM_SCHEMAS: Record<string, Record<string, unknown>> = {
  isCountryCode: { type: 'string', pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' },
  isCalendarDate: { type: 'string', format: 'date' },
  isNotBlank: { pattern: '\\S', description: 'not only whitespace' },
};

function customToSchema(meta: ValidationMetadata): Record<string, unknown> | undefined {
  if (!meta.constraintCls) return undefined;
  const [constraint] = getMetadataStorage().getTargetValidatorConstraints(meta.constraintCls);
  return constraint ? CUSTOM_SCHEMAS[constraint.name] : undefined;
}

/**
 * JSON Schemas for every class-validator DTO loaded in the process, keyed by class name, nested DTOs as `$ref`s.
 * They describe what the gateway's ValidationPipe really enforces, so every object schema is closed
 * (`additionalProperties: false`): the pipe runs with `forbidNonWhitelisted` and rejects unknown fields.
 * Nullability comes out as OpenAPI 3.0 `nullable` and is turned into 3.1 type arrays with the rest of the document.
 */
export function dtoSchemas(): SchemaMap {
  const schemas = validationMetadatasToSchemas(OPTIONS) as SchemaMap;
  for (const schema of Object.values(schemas)) schema.additionalProperties = false;
  return schemas;
}

/** One DTO's schema (inherited rules included), e.g. to turn a query DTO into query parameters. */
export function dtoSchemaOf(dto: Function): { properties?: Record<string, unknown>; required?: string[] } {
  return targetConstructorToSchema(dto, OPTIONS) as { properties?: Record<string, unknown>; required?: string[] };
}

/**
 * `@ValidateIf(cond)` skips every rule when `cond` is false; if it is false for null, null is an accepted value
 * (e.g. `webhookEndpoint: null` clears the endpoint). `@IsOptional()` also lets null through, but that is a
 * class-validator quirk rather than a promise, so it only makes the property optional (not listed in `required`).
 */
function nullableWhenSkipped(meta: ValidationMetadata): Record<string, unknown> {
  if (meta.name === IS_OPTIONAL) return {};
  const condition = meta.constraints?.[0] as ((object: object, value: unknown) => boolean) | undefined;
  try {
    return typeof condition === 'function' && !condition({ [meta.propertyName]: null }, null) ? { nullable: true } : {};
  } catch {
    return {}; // a condition that reads other fields cannot be probed alone: claim nothing
  }
}

/** The default converter drops the regex flags; a case-insensitive `/…/i` would then document a stricter rule. */
function matchesToPattern(meta: ValidationMetadata): Record<string, unknown> {
  const [pattern, modifiers] = meta.constraints ?? [];
  const regex = pattern instanceof RegExp ? pattern : new RegExp(String(pattern), modifiers as string | undefined);
  const source = regex.flags.includes('i') ? caseInsensitiveSource(regex.source) : regex.source;
  return source === undefined ? { type: 'string' } : { type: 'string', pattern: source };
}

/**
 * Rewrites a regex source so it matches case-insensitively without flags (JSON Schema patterns have none):
 * letters outside character classes become `[xX]`. Gives up (undefined) on sources it cannot rewrite safely:
 * letters inside a class, group syntax `(?…)`, or escapes that carry letters (`\u00e9`, `\p{L}`, `\k<n>`…). The
 * schema then states the type only, which is looser than the real check but never stricter.
 */
export function caseInsensitiveSource(source: string): string | undefined {
  if (/\\[uxcpPk]|\(\?/.test(source)) return undefined;
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (char === '\\') {
      out += source.slice(i, i + 2); // a one-letter escape (\s, \d, \/…) is copied as is
      i++;
    } else if (char === '[') {
      const end = classEnd(source, i);
      const body = source.slice(i, end + 1);
      if (/[a-z]/i.test(body.replace(/\\./g, ''))) return undefined;
      out += body;
      i = end;
    } else {
      out += /[a-z]/i.test(char) ? `[${char.toLowerCase()}${char.toUpperCase()}]` : char;
    }
  }
  return out;
}

function classEnd(source: string, start: number): number {
  for (let i = start + 1; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === ']') return i;
  }
  return source.length - 1;
}
