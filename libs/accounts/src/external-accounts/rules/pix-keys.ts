import { cnpjValid, cpfValid } from './checksums/brazil-tax-ids';
import { Check, Format, stringField } from './field-rule';
import { holds } from './formats';
import { phonePattern } from './phone-plans';

export const PIX_KEY_TYPES = ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM'] as const;
type PixKeyType = (typeof PIX_KEY_TYPES)[number];

const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
const EMAIL_LENGTH_MAX = 77; // the DICT directory's limit for e-mail keys
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** How a PIX key of each type is written in the DICT directory. */
const PIX_KEY_CHECKS: Record<PixKeyType, Check> = {
  CPF: holds(cpfValid, 'must be a CPF: 11 digits with valid check digits'),
  CNPJ: holds(cnpjValid, 'must be a CNPJ: 14 digits with valid check digits'),
  EMAIL: holds((v) => v.length <= EMAIL_LENGTH_MAX && EMAIL.test(v), `must be an e-mail address of at most ${EMAIL_LENGTH_MAX} characters`),
  PHONE: holds((v) => phonePattern('BR').test(v), 'must be +55 then 10 or 11 digits'),
  RANDOM: holds((v) => UUID.test(v), 'must be a random key (EVP): a UUID such as 123e4567-e89b-12d3-a456-426614174000'),
};

/** A PIX key checked against its `pixKeyType`; when the type itself is wrong, only the type is reported. */
export const pixKey: Format = {
  check: (value, info) => {
    const type = stringField(info, 'pixKeyType');
    return (PIX_KEY_TYPES as readonly string[]).includes(type) ? PIX_KEY_CHECKS[type as PixKeyType](value, info) : undefined;
  },
  constraint: { format: 'pix-key' },
};

export const brazilTaxId: Format = {
  check: holds((v) => cpfValid(v) || cnpjValid(v), 'must be a CPF (11 digits) or CNPJ (14 digits) with valid check digits'),
  constraint: { pattern: '^(\\d{11}|\\d{14})$' },
};
