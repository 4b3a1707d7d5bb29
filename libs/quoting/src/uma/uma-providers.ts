import { decodeCursor, encodeCursor, ListUmaProvidersQuery, Page, PAGE_LIMIT_DEFAULT, UmaProvider } from '@payments/contracts';
import { currencyObject } from '@payments/money';
import type { UmaCatalogueEntry } from '@payments/uma';

/**
 * GET /uma-providers over an in-memory catalogue: filtered, ordered by name (unique), paged by a name cursor. BLOCKED
 * providers are left out unless `hasBlockedProviders=true`: a platform browsing whom it can pay should not be shown
 * providers it may not pay, and asking for them is explicit.
 */
export function listUmaProviders(catalogue: readonly UmaCatalogueEntry[], query: ListUmaProvidersQuery): Page<UmaProvider> {
  const country = query.countryCode?.toUpperCase();
  const currency = query.currencyCode?.toUpperCase();
  const desc = query.sortOrder === 'desc';
  const matching = catalogue
    .filter((p) => query.hasBlockedProviders === 'true' || p.allowListStatus !== 'BLOCKED')
    .filter((p) => !country || p.supportedRegions.includes(country))
    .filter((p) => !currency || p.supportedCurrencies.includes(currency))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) * (desc ? -1 : 1));
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const rest = after === undefined ? matching : matching.filter((p) => (desc ? p.name < after : p.name > after));
  const limit = query.limit ?? PAGE_LIMIT_DEFAULT;
  const page = rest.slice(0, limit);
  const hasMore = rest.length > limit;
  return { data: page.map(toUmaProvider), hasMore, ...(hasMore ? { nextCursor: encodeCursor(page[page.length - 1].name) } : {}), totalCount: matching.length };
}

/** The published form: currencies as Currency objects, the allow list as a boolean. */
export function toUmaProvider({ supportedCurrencies, allowListStatus, ...rest }: UmaCatalogueEntry): UmaProvider {
  return { ...rest, supportedCurrencies: supportedCurrencies.map(currencyObject), allowListStatus: allowListStatus === 'ALLOWED' };
}
