import { Institution } from './institution';
import { AMERICAS } from './institutions-americas';
import { ASIA } from './institutions-asia';
import { EUROPE_AFRICA } from './institutions-europe-africa';

/** The catalogue shipped with the service: every institution, in a stable order. */
export const INSTITUTIONS: readonly Institution[] = [...AMERICAS, ...EUROPE_AFRICA, ...ASIA];

export interface DiscoveryQuery {
  country?: string;
  currency?: string;
}

/**
 * `GET /discoveries?country&currency`: institutions matching every filter given (case-insensitive; an empty value
 * counts as absent), every institution when both are absent.
 */
export function discover(query: DiscoveryQuery = {}, catalogue: readonly Institution[] = INSTITUTIONS): Institution[] {
  const country = query.country?.trim().toUpperCase() || undefined;
  const currency = query.currency?.trim().toUpperCase() || undefined;
  return catalogue.filter((i) => (!country || i.country === country) && (!currency || i.currency === currency));
}

/** The bankName values discovered for a currency (e.g. the names a PHP account's bankName must be one of). */
export const discoveredBankNames = (currency: string, catalogue: readonly Institution[] = INSTITUTIONS): string[] => [
  ...new Set(discover({ currency }, catalogue).map((i) => i.bankName)),
];
