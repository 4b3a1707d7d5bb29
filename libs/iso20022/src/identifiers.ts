import { Iso20022Error } from './errors';

/** The SEPA basic Latin character set (EPC implementation guidelines, "Character set"). */
const SEPA_TEXT = /^[A-Za-z0-9/\-?:().,'+ ]*$/;

/** Letters that do not decompose under NFD into a base letter and marks. */
const SPECIAL: Record<string, string> = {
  ß: 'ss', æ: 'ae', Æ: 'AE', ø: 'o', Ø: 'O', œ: 'oe', Œ: 'OE', ł: 'l', Ł: 'L', đ: 'd', Đ: 'D', þ: 'th', Þ: 'TH', ð: 'd', Ð: 'D', ı: 'i',
};

/**
 * Latin letters with diacritics become their base letters (é → e, ß → ss); anything else outside the SEPA set (another
 * script, &, @, _, quotes other than ') is refused, naming the field: rewriting it would send a name the bank could
 * match to someone else.
 */
export function sepaText(value: string, field: string, max: number, mode: 'truncate' | 'refuse'): string {
  const latin = [...value.normalize('NFC')].map((ch) => SPECIAL[ch] ?? ch).join('');
  const text = latin.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/\s+/g, ' ').trim();
  if (!text) throw new Iso20022Error('INVALID_INPUT', `${field} is empty`);
  if (!SEPA_TEXT.test(text)) {
    const bad = [...text].find((ch) => !SEPA_TEXT.test(ch));
    throw new Iso20022Error('INVALID_INPUT', `${field} has a character outside the SEPA character set: "${bad}"`);
  }
  if (text.length <= max) return text;
  if (mode === 'refuse') throw new Iso20022Error('INVALID_INPUT', `${field} is longer than ${max} characters`);
  return text.slice(0, max).trimEnd();
}

/**
 * A reference we put on a payment (MsgId, PmtInfId, InstrId, EndToEndId): at most 35 SEPA characters, no leading or
 * trailing "/" and no "//" (EPC rules), never altered, since the bank's status and notification files quote it back.
 */
export function reference(value: string, field: string): string {
  if (!value || value.length > 35 || !SEPA_TEXT.test(value) || value.trim() !== value) {
    throw new Iso20022Error('INVALID_INPUT', `${field} "${value}" must be 1-35 characters of [A-Za-z0-9/-?:().,'+ ] without surrounding spaces`);
  }
  if (value.startsWith('/') || value.endsWith('/') || value.includes('//')) {
    throw new Iso20022Error('INVALID_INPUT', `${field} "${value}" must not start or end with "/" or contain "//"`);
  }
  return value;
}

/** An IBAN in its electronic form (spaces removed, upper case), checked by ISO 13616 mod-97. */
export function iban(value: string, field: string): string {
  const v = value.replace(/ /g, '').toUpperCase();
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(v) || ibanMod97(v) !== 1) {
    throw new Iso20022Error('INVALID_INPUT', `${field} "${value}" is not a valid IBAN`);
  }
  return v;
}

function ibanMod97(v: string): number {
  const rearranged = v.slice(4) + v.slice(0, 4);
  let rest = 0;
  for (const ch of rearranged) {
    const n = ch >= 'A' ? ch.charCodeAt(0) - 55 : Number(ch);
    rest = (rest * (n >= 10 ? 100 : 10) + n) % 97;
  }
  return rest;
}

/** A BIC (ISO 9362, the BICFI pattern of the schema): 8 or 11 characters. */
export function bic(value: string, field: string): string {
  const v = value.trim().toUpperCase();
  if (!/^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(v)) {
    throw new Iso20022Error('INVALID_INPUT', `${field} "${value}" is not a valid BIC`);
  }
  return v;
}
