import { ACCOUNT_TYPES } from '../account-types';
import { checksumsIn } from '../field-rule';
import { publicAccountInfo } from '../published-form';
import { validateExternalAccount } from '../validate-external-account';
import { ACCOUNT_TYPE_TABLE, rowFor } from './account-type-table';
import { applyPatch, isChecksumCase, ROW_CASES } from './test-cases/test-row-cases';

const validate = (currency: string, accountInfo: Record<string, unknown>) =>
  validateExternalAccount({ currency, accountInfo, ownerType: 'INDIVIDUAL', today: '2026-03-01' });
const fieldsOf = (errors: { field: string }[]) => errors.map((e) => e.field);

describe.each(ROW_CASES)('$accountType', ({ accountType, currency, valid, invalid }) => {
  it.each(valid.map((info, i) => [i, info] as const))('accepts valid account %i', (_, info) => {
    expect(validate(currency, info)).toEqual([]);
  });

  it.each(invalid)('refuses $name, on $field alone', (c) => {
    const errors = validate(c.currency ?? currency, applyPatch(valid[c.base ?? 0], c.patch));
    expect(fieldsOf(errors)).toEqual([c.field]);
    expect(errors[0].message.length).toBeGreaterThan(10);
  });

  it('refuses an unknown field and names it', () => {
    const errors = validate(currency, { ...valid[0], nickname: 'main' });
    expect(errors).toEqual([{ field: 'accountInfo.nickname', message: `nickname is not a field of ${accountType}` }]);
  });

  it('refuses a currency the type does not carry', () => {
    expect(fieldsOf(validate('XYZ', valid[0]))).toEqual(['currency']);
  });
});

describe('the account-type table', () => {
  it('has exactly one row per accountType, and test cases for each', () => {
    expect(ACCOUNT_TYPE_TABLE.map((r) => r.accountType).sort()).toEqual([...ACCOUNT_TYPES].sort());
    expect(ROW_CASES.map((c) => c.accountType).sort()).toEqual([...ACCOUNT_TYPES].sort());
  });

  it.each(ACCOUNT_TYPE_TABLE.map((row) => [row.accountType, row] as const))('%s: every field has a failing value and every required field a missing case', (accountType) => {
    const row = rowFor(accountType)!;
    const cases = ROW_CASES.find((c) => c.accountType === accountType)!.invalid;
    const keys = new Set((row.variants ?? []).map((v) => v.key));
    const rules = [row.fields, ...(row.variants ?? []).map((v) => v.fields)].flatMap((fields) => Object.entries(fields));
    const targets = (field: string, deleted: boolean) => cases.some((c) => c.field === `accountInfo.${field}` && (c.patch[field] === undefined) === deleted && field in c.patch);
    const uncovered = rules.filter(([field]) => !targets(field, false)).map(([field]) => `${field}: no bad value`);
    const unrequired = rules.filter(([field, rule]) => rule.required && !keys.has(field) && !targets(field, true)).map(([field]) => `${field}: no missing case`);
    expect([...uncovered, ...unrequired]).toEqual([]);
    // Neither variant, and both (unless one is primary: then both is valid, the other kept beside it).
    if (row.variants) expect(cases.filter((c) => c.field === 'accountInfo').length).toBeGreaterThanOrEqual(row.variants.some((v) => v.primary) ? 1 : 2);
  });

  it('refuses an accountType it does not know and an accountInfo that is not an object', () => {
    expect(fieldsOf(validate('USD', { accountType: 'IBAN_ACCOUNT' }))).toEqual(['accountInfo.accountType']);
    expect(fieldsOf(validateExternalAccount({ currency: 'USD', accountInfo: 'x', ownerType: 'INDIVIDUAL' }))).toEqual(['accountInfo']);
  });

  it('reports every broken rule of one request, not only the first', () => {
    const usd = ROW_CASES[0].valid[0];
    const errors = validate('EUR', { ...usd, routingNumber: '1', accountNumber: undefined, paymentRails: ['SEPA'] });
    expect(fieldsOf(errors).sort()).toEqual(['accountInfo.accountNumber', 'accountInfo.paymentRails', 'accountInfo.routingNumber', 'currency']);
  });

  it('gives every fiat type the rails its answers list, and crypto wallets none', () => {
    for (const { accountType, valid } of ROW_CASES) {
      const row = rowFor(accountType)!;
      const fiat = row.beneficiary === 'required';
      for (const info of valid) expect({ accountType, rails: publicAccountInfo(info).paymentRails }).toEqual({ accountType, rails: fiat ? expect.arrayContaining([expect.any(String)]) : undefined });
    }
  });
});

/** Every refusal named a check digit or checksum (isChecksumCase) is one alone; every other is a format, in both modes. */
describe('check digits and checksums under Checksums RELAXED (the sandbox)', () => {
  const cases = ROW_CASES.flatMap(({ accountType, currency, valid, invalid }) => invalid.map((c) => ({ accountType, currency: c.currency ?? currency, info: applyPatch(valid[c.base ?? 0], c.patch), c })));

  it.each(cases.filter(({ c }) => isChecksumCase(c)).map((x) => [x.accountType, x.c.name, x] as const))('%s accepts %s', (_, __, { currency, info }) => {
    expect(validateExternalAccount({ currency, accountInfo: info, ownerType: 'INDIVIDUAL', today: '2026-03-01', checksums: 'RELAXED' })).toEqual([]);
  });

  it.each(cases.filter(({ c }) => !isChecksumCase(c)).map((x) => [x.accountType, x.c.name, x] as const))('%s still refuses %s', (_, __, { currency, info, c }) => {
    expect(fieldsOf(validateExternalAccount({ currency, accountInfo: info, ownerType: 'INDIVIDUAL', today: '2026-03-01', checksums: 'RELAXED' }))).toEqual([c.field]);
  });

  it('maps the caller mode to the switch: production enforces, the sandbox relaxes', () => {
    expect([checksumsIn('PRODUCTION'), checksumsIn('SANDBOX')]).toEqual(['ENFORCED', 'RELAXED']);
  });
});
