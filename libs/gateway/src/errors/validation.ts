import { ValidationError, ValidationPipe } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { ApiError, FieldError } from '@payments/contracts';

/**
 * class-validator on every body: unknown fields are rejected (naming them), types are not coerced, and failures
 * become 400 INVALID_INPUT with `details.errors[] = {field, message, constraint}` (dot paths for nested fields).
 * `constraint` is the published FieldConstraint where a rule has a counterpart there (`maxLength`/`minLength` as
 * integers, `enum` as the allowed strings, `pattern` as the regular expression's source, `format`); any other rule is
 * `{<rule>: <its parameter>}`, or `{<rule>: true}` when it has none.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    stopAtFirstError: true, // one message per field: the first rule it breaks
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    // The target (the instance validated) is kept only to look up the rule's parameters; it never leaves this file.
    validationError: { target: true, value: false },
    exceptionFactory: (errors) => {
      const fields = flatten(errors);
      return new ApiError('INVALID_INPUT', summarize(fields), { errors: fields });
    },
  });
}

function flatten(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.entries(error.constraints ?? {}).map(([name, message]) => ({
      field,
      message: name === 'whitelistValidation' ? `unknown field ${field}` : message,
      constraint: constraintOf(name, parametersOf(error, name)),
    }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/** The parameters class-validator registered for this rule on this property (`@MaxLength(255)` → `[255]`). */
function parametersOf(error: ValidationError, name: string): unknown[] | undefined {
  const target = error.target as object | undefined;
  if (!target || typeof target !== 'object') return undefined;
  const metadata = getMetadataStorage()
    .getTargetValidationMetadatas(target.constructor, '', true, false)
    .find((m) => m.propertyName === error.property && (m.name === name || m.type === name));
  return metadata?.constraints;
}

/** Named formats of the published FieldConstraint, for rules that check one. */
const FORMATS: Record<string, string> = {
  isEmail: 'email',
  isUrl: 'url',
  isURL: 'url',
  isIso8601: 'date-time',
  isISO8601: 'date-time',
  isDateString: 'date-time',
  isCalendarDate: 'date',
  isCountryCode: 'iso3166-1-alpha-2',
  isISO31661Alpha2: 'iso3166-1-alpha-2',
  isUuid: 'uuid',
  isUUID: 'uuid',
  isFqdn: 'hostname',
  isFQDN: 'hostname',
  isIp: 'ip',
  isIP: 'ip',
};

export function constraintOf(name: string, parameters: unknown[] | undefined): Record<string, unknown> {
  const [first, second] = parameters ?? [];
  switch (name) {
    case 'maxLength':
      if (Number.isInteger(first)) return { maxLength: first };
      break;
    case 'minLength':
      if (Number.isInteger(first)) return { minLength: first };
      break;
    case 'isLength':
      return { ...(Number.isInteger(first) ? { minLength: first } : {}), ...(Number.isInteger(second) ? { maxLength: second } : {}) };
    case 'isIn':
      if (Array.isArray(first)) return { enum: first.map(String) };
      break;
    case 'isEnum':
      if (first && typeof first === 'object') return { enum: Object.values(first as object).filter((v) => typeof v === 'string') };
      break;
    case 'matches':
      if (first instanceof RegExp) return { pattern: first.source };
      if (typeof first === 'string') return { pattern: first };
      break;
  }
  if (FORMATS[name]) return { format: FORMATS[name] };
  const parameter = parameters?.length === 1 ? first : undefined;
  return { [name]: isPlain(parameter) ? parameter : true };
}

/** A parameter worth showing as is: a number, string or boolean (not a function, a class or a regular expression). */
function isPlain(value: unknown): value is number | string | boolean {
  return typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean';
}

function summarize(errors: FieldError[]): string {
  const fields = [...new Set(errors.map((e) => e.field))];
  return `invalid request: ${fields.slice(0, 5).join(', ')}${fields.length > 5 ? ', …' : ''}`;
}
