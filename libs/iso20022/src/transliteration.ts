/**
 * Free text for the payee (remittance information) in the characters a bank file may carry. Chosen over a package:
 * node_modules has only `diacritics`, which does no more than Unicode decomposition already does; the rules here are
 * the EPC's (SEPA's basic Latin set) and NACHA's (printable ASCII), small enough to keep tested in one table.
 *
 * Latin letters lose their marks (é → e, Š → S), letters without a decomposition are spelled out (ß → ss, ø → o),
 * typographic punctuation becomes its ASCII kind (– → -, ’ → ', “ → "), and what has no Latin spelling (another
 * script, emoji) is left out rather than turned into '?': a question mark tells the payee nothing.
 */

const SPELLED: Record<string, string> = {
  ß: 'ss', ẞ: 'SS', æ: 'ae', Æ: 'AE', ø: 'o', Ø: 'O', œ: 'oe', Œ: 'OE', ł: 'l', Ł: 'L', đ: 'd', Đ: 'D', þ: 'th', Þ: 'TH', ð: 'd', Ð: 'D', ı: 'i', ħ: 'h', Ħ: 'H', ŋ: 'ng', Ŋ: 'NG',
  '–': '-', '—': '-', '‒': '-', '−': '-', '‐': '-', '‑': '-', '‘': "'", '’': "'", '‚': "'", '‹': "'", '›': "'", '“': '"', '”': '"', '„': '"', '«': '"', '»': '"',
  '…': '...', '•': '-', '·': '.', '€': 'EUR', '£': 'GBP', '¥': 'JPY', '×': 'x', '№': 'No', '°': 'o', '\u00a0': ' ',
};

/** Printable ASCII (0x20–0x7E), whitespace collapsed and trimmed; '' when nothing Latin is left. */
export function latinText(value: string): string {
  const spelled = [...value.normalize('NFC')].map((ch) => SPELLED[ch] ?? ch).join('');
  return spelled
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\s+/g, ' ')
    .replace(/[^\x20-\x7E]/g, '')
    .replace(/ {2,}/g, ' ')
    .trim();
}

/**
 * ASCII the SEPA set lacks, as the EPC guidelines suggest or nearest in meaning ('&' → '+', '"' → "'"); the rest
 * (#, *, _, …) becomes a space. The SEPA set: A–Z a–z 0–9 / - ? : ( ) . , ' + space.
 */
const TO_SEPA: Record<string, string> = { '&': '+', '"': "'", '`': "'", '[': '(', ']': ')', '{': '(', '}': ')', '<': '(', '>': ')', ';': ',', '!': '.', '=': '-', '~': '-', '|': '/', '\\': '/' };

/** Remittance information in the SEPA basic Latin set, cut to `max` characters (RmtInf/Ustrd: 140); undefined when empty. */
export function sepaFreeText(value: string, max = 140): string | undefined {
  const text = [...latinText(value)]
    .map((ch) => (/^[A-Za-z0-9/\-?:().,'+ ]$/.test(ch) ? ch : (TO_SEPA[ch] ?? ' ')))
    .join('')
    .replace(/ {2,}/g, ' ')
    .trim()
    .slice(0, max)
    .trimEnd();
  return text === '' ? undefined : text;
}
