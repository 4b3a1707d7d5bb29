import { IsIn, IsString, Matches } from 'class-validator';
import { OptionalNotNull } from '../optional-not-null';
import { PageQuery } from '../pagination/pagination';
import type { QuoteCurrency } from '../quotes/quotes.dto';

/** A UMA provider (VASP) payments can reach, in the published UmaProvider form. */
export interface UmaProvider {
  name: string;
  /** ISO 3166-1 alpha-2 codes of the countries it serves. */
  supportedRegions: string[];
  /**
   * The domain of its users' UMA addresses.
   * @format hostname
   */
  domain: string;
  /** @format uri */
  logoUrl: string;
  supportedCurrencies: QuoteCurrency[];
  /**
   * ISO 17442 Legal Entity Identifier.
   * @pattern ^[A-Z0-9]{18}[0-9]{2}$
   */
  lei: string;
  /** Whether the provider is on the platform's allow list (false: its users may not be paid). */
  allowListStatus: boolean;
}

/** GET /uma-providers: filters are exact and case-insensitive; BLOCKED providers only with hasBlockedProviders=true. */
export class ListUmaProvidersQuery extends PageQuery {
  @OptionalNotNull() @IsString() @Matches(/^[A-Za-z]{2}$/, { message: 'countryCode must be an ISO 3166-1 alpha-2 code' }) countryCode?: string;
  @OptionalNotNull() @IsString() @Matches(/^[A-Za-z]{3,5}$/, { message: 'currencyCode must be a currency code' }) currencyCode?: string;
  @OptionalNotNull() @IsIn(['true', 'false']) hasBlockedProviders?: 'true' | 'false';
  /** By provider name; ascending by default (a catalogue has no creation order). */
  @OptionalNotNull() @IsIn(['asc', 'desc']) sortOrder?: 'asc' | 'desc';
}

/** One currency a UMA receiver can be paid in. */
export interface UmaReceiverCurrency {
  currency: QuoteCurrency;
  /**
   * Receiving major units per one sending major unit (mid rate, before fees); 1 for the sender's own currency.
   * @exclusiveMinimum 0
   */
  estimatedExchangeRate: number;
  /**
   * Smallest amount, in the smallest unit of `currency` (the platform's limits of that currency).
   * @asType integer
   * @minimum 0
   */
  min: number;
  /**
   * Largest amount, in the smallest unit of `currency`.
   * @asType integer
   * @minimum 0
   */
  max: number;
}

/** GET /receiver/uma/{receiverUmaAddress} (interop §6.14). */
export interface UmaReceiverLookup {
  /**
   * The looked-up address, lower case.
   * @examples ["$success.usd@sandbox.uma.money"]
   */
  receiverUmaAddress: string;
  supportedCurrencies: UmaReceiverCurrency[];
  requiredPayerDataFields?: { name: string; mandatory: boolean }[];
  /**
   * `Lookup:<uuidv7>`: name it in a quote to this address.
   * @pattern ^Lookup:
   */
  lookupId: string;
}

/** What quote creation learns from a stored lookup. */
export interface ResolvedUmaLookup {
  lookupId: string;
  receiverUmaAddress: string;
  /** Codes of the currencies the receiver accepts. */
  currencies: string[];
}

export const isLookupId = (value: string): boolean => /^Lookup:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value);
