import { IsString, MaxLength, MinLength, registerDecorator, ValidationOptions } from 'class-validator';
import { isValid as isCountry } from 'i18n-iso-countries';

/** ISO 3166-1 alpha-2, upper case (`DE`, `US`). */
export function IsCountryCode(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isCountryCode',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `${String(propertyName)} must be an ISO 3166-1 alpha-2 country code`, ...options },
      validator: { validate: (value: unknown) => typeof value === 'string' && /^[A-Z]{2}$/.test(value) && isCountry(value) },
    });
}

/** A calendar date `YYYY-MM-DD` that exists (no 2023-02-30). Whether it must be past is a domain rule. */
export function IsCalendarDate(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isCalendarDate',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `${String(propertyName)} must be a date in YYYY-MM-DD format`, ...options },
      validator: { validate: (value: unknown) => typeof value === 'string' && isCalendarDate(value) },
    });
}

export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [y, m, d] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d && y >= 1800;
}

/** E.164: `+` then up to 15 digits, no leading zero. */
export const E164 = /^\+[1-9]\d{1,14}$/;

/**
 * A name: of an API token, a person (fullName, firstName, middleName, lastName), a business (legalName). A string of
 * 1 to `maxLength` characters that is not only whitespace, so "   " is a 400 rather than a nameless record. Built
 * from class-validator's own rules (the OpenAPI schema still shows type, minLength and maxLength) plus isNotBlank.
 */
export function IsName(maxLength: number): PropertyDecorator {
  const rules = [IsString(), MinLength(1), MaxLength(maxLength), IsNotBlank()];
  return (target, propertyName) => rules.forEach((rule) => rule(target, propertyName));
}

function IsNotBlank(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isNotBlank',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `${String(propertyName)} must not be blank (whitespace only)` },
      validator: { validate: (value: unknown) => typeof value === 'string' && value.trim() !== '' },
    });
}
