import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import {
  CreateCustomerRequest,
  CUSTOMER_TYPES,
  CustomerCsvColumn,
  CustomerImportRowError,
  CustomerType,
  FieldError,
} from '@payments/contracts';

/** Cells each type must fill (the seed's list) and the columns that belong to one type only. */
const REQUIRED: Record<CustomerType, CustomerCsvColumn[]> = {
  INDIVIDUAL: ['umaAddress', 'platformCustomerId', 'fullName', 'birthDate', 'addressLine1', 'city', 'state', 'postalCode', 'country'],
  BUSINESS: ['umaAddress', 'platformCustomerId', 'businessLegalName', 'addressLine1', 'city', 'state', 'postalCode', 'country'],
};
const ONLY_FOR: Partial<Record<CustomerCsvColumn, CustomerType>> = {
  fullName: 'INDIVIDUAL', birthDate: 'INDIVIDUAL', email: 'INDIVIDUAL',
  businessLegalName: 'BUSINESS', businessRegistrationNumber: 'BUSINESS', businessTaxId: 'BUSINESS',
};

/** Where a Customer field comes from in the file, so an error names the column the user has to fix. */
const COLUMN_OF_FIELD: Record<string, CustomerCsvColumn> = {
  umaAddress: 'umaAddress', platformCustomerId: 'platformCustomerId', customerType: 'customerType',
  fullName: 'fullName', birthDate: 'birthDate', email: 'email',
  'address.line1': 'addressLine1', 'address.line2': 'addressLine2', 'address.city': 'city', 'address.state': 'state',
  'address.postalCode': 'postalCode', 'address.country': 'country',
  'businessInfo.legalName': 'businessLegalName', 'businessInfo.registrationNumber': 'businessRegistrationNumber',
  'businessInfo.taxId': 'businessTaxId', 'businessInfo.country': 'country',
};

/**
 * POST /customers requires businessInfo.incorporatedOn and taxId, but the seed's CSV has no incorporation-date
 * column and makes businessTaxId optional. Refusing every business row would make the business half of the
 * format useless, so a CSV business is created without them (KYB asks for them; PATCH /customers adds them).
 * Only their absence is waived: a businessTaxId that is present is validated like any other field.
 */
const WAIVED_WHEN_ABSENT = new Set(['businessInfo.incorporatedOn', 'businessInfo.taxId']);

/** The same class-validator options as the gateway's ValidationPipe for POST /customers. */
const VALIDATION = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true, stopAtFirstError: true, validationError: { target: false, value: false } };

export type PreparedRow =
  | { rowNumber: number; correlationId?: string; request: CreateCustomerRequest; keys: string[] }
  | { rowNumber: number; correlationId?: string; errors: CustomerImportRowError[] };

/** One data row → the request POST /customers would receive, or the row's errors (every field, not just the first). */
export function prepareRow(header: readonly CustomerCsvColumn[], cells: readonly string[], rowNumber: number): PreparedRow {
  const values: Partial<Record<CustomerCsvColumn, string>> = {};
  header.forEach((column, i) => {
    const cell = cells[i]?.trim();
    if (cell) values[column] = cell;
  });
  const correlationId = values.platformCustomerId;
  const fail = (errors: Omit<CustomerImportRowError, 'row' | 'correlationId'>[]): PreparedRow => ({
    rowNumber,
    correlationId,
    errors: errors.map((e) => ({ row: rowNumber, ...e, ...(correlationId ? { correlationId } : {}) })),
  });
  if (cells.length !== header.length) return fail([{ code: 'INVALID_INPUT', message: `the row has ${cells.length} fields; the header has ${header.length}` }]);
  const type = values.customerType as CustomerType | undefined;
  if (!type || !CUSTOMER_TYPES.includes(type)) return fail([{ field: 'customerType', code: 'INVALID_INPUT', message: 'customerType must be INDIVIDUAL or BUSINESS' }]);
  const shapeErrors = [
    ...REQUIRED[type].filter((c) => values[c] === undefined).map((field) => ({ field, code: 'INVALID_INPUT', message: `${field} is required for ${type} rows` })),
    ...Object.entries(ONLY_FOR).filter(([c, t]) => t !== type && values[c as CustomerCsvColumn] !== undefined).map(([field, t]) => ({ field, code: 'INVALID_INPUT', message: `${field} is only for ${t} rows` })),
  ];
  const request = toRequest(type, values);
  const errors = [...shapeErrors, ...validationErrors(request).filter((e) => !shapeErrors.some((s) => s.field === e.field))];
  if (errors.length > 0) return fail(unique(errors));
  return { rowNumber, correlationId, request, keys: [`platformCustomerId:${request.platformCustomerId}`, `umaAddress:${request.umaAddress!.toLowerCase()}`] };
}

/** Field errors of the customer API (validation or a domain rule) as row errors naming CSV columns. */
export function toRowErrors(rowNumber: number, correlationId: string | undefined, code: string, message: string, fieldErrors: readonly FieldError[] = []): CustomerImportRowError[] {
  const base = { row: rowNumber, code, ...(correlationId ? { correlationId } : {}) };
  if (fieldErrors.length === 0) return [{ ...base, message }];
  return fieldErrors.map((e) => ({ ...base, ...(COLUMN_OF_FIELD[e.field] ? { field: COLUMN_OF_FIELD[e.field] } : {}), message: e.message }));
}

function toRequest(type: CustomerType, v: Partial<Record<CustomerCsvColumn, string>>): CreateCustomerRequest {
  const address = { line1: v.addressLine1, line2: v.addressLine2, city: v.city, state: v.state, postalCode: v.postalCode, country: v.country };
  const common = { customerType: type, platformCustomerId: v.platformCustomerId, umaAddress: v.umaAddress, address };
  const request = type === 'INDIVIDUAL'
    ? { ...common, fullName: v.fullName, birthDate: v.birthDate, email: v.email }
    : { ...common, businessInfo: { legalName: v.businessLegalName, country: v.country, registrationNumber: v.businessRegistrationNumber, taxId: v.businessTaxId } };
  return JSON.parse(JSON.stringify(request)); // absent cells leave no key behind
}

function validationErrors(request: CreateCustomerRequest): Omit<CustomerImportRowError, 'row'>[] {
  const failures = flatten(validateSync(plainToInstance(CreateCustomerRequest, request), VALIDATION));
  return failures
    .filter((f) => !(WAIVED_WHEN_ABSENT.has(f.field) && valueAt(request, f.field) === undefined))
    .map((f) => ({ ...(COLUMN_OF_FIELD[f.field] ? { field: COLUMN_OF_FIELD[f.field] } : {}), code: 'INVALID_INPUT', message: f.message }));
}

/** A business's `country` feeds both address.country and businessInfo.country: one message per column is enough. */
function unique<T extends { field?: string; message: string }>(errors: T[]): T[] {
  return errors.filter((e, i) => errors.findIndex((o) => o.field === e.field && o.message === e.message) === i);
}

function flatten(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

function valueAt(object: object, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], object);
}
