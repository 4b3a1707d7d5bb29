import { cnpjValid, cpfValid } from './checksums/brazil-tax-ids';
import { AccountInfo, Format, stringField } from './field-rule';
import { EMAIL_ADDRESS, holds, matches, withChecksum } from './formats';
import { phonePattern } from './phone-plans';

export const PIX_KEY_TYPES = ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM'] as const;
type PixKeyType = (typeof PIX_KEY_TYPES)[number];

const EMAIL_LENGTH_MAX = 77; // the DICT directory's limit for e-mail keys
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** How a PIX key of each type is written in the DICT directory (CPF and CNPJ keys carry check digits). */
const PIX_KEY_FORMATS: Record<PixKeyType, Format> = {
  CPF: withChecksum(matches(/^\d{11}$/, 'a CPF: 11 digits'), holds(cpfValid, 'must be a CPF with valid check digits')),
  CNPJ: withChecksum(matches(/^\d{14}$/, 'a CNPJ: 14 digits'), holds(cnpjValid, 'must be a CNPJ with valid check digits')),
  EMAIL: { check: holds((v) => v.length <= EMAIL_LENGTH_MAX && EMAIL_ADDRESS.test(v), `must be an e-mail address of at most ${EMAIL_LENGTH_MAX} characters`) },
  PHONE: { check: holds((v) => phonePattern('BR').test(v), 'must be +55 then 10 or 11 digits') },
  RANDOM: { check: holds((v) => UUID.test(v), 'must be a random key (EVP): a UUID such as 123e4567-e89b-12d3-a456-426614174000') },
};

const keyFormat = (info: AccountInfo): Format | undefined => {
  const type = stringField(info, 'pixKeyType');
  return (PIX_KEY_TYPES as readonly string[]).includes(type) ? PIX_KEY_FORMATS[type as PixKeyType] : undefined;
};

/** A PIX key checked against its `pixKeyType`; when the type itself is wrong, only the type is reported. */
export const pixKey: Format = {
  check: (value, info) => keyFormat(info)?.check(value, info),
  checksum: (value, info) => keyFormat(info)?.checksum?.(value, info),
  constraint: { format: 'pix-key' },
};

export const brazilTaxId: Format = withChecksum(
  matches(/^(\d{11}|\d{14})$/, 'a CPF (11 digits) or CNPJ (14 digits)'),
  holds((v) => cpfValid(v) || cnpjValid(v), 'must be a CPF or CNPJ with valid check digits'),
);
