import { IsString, Matches } from 'class-validator';
import { OptionalNotNull } from '../optional-not-null';

/** GET /discoveries: both filters optional (every institution when both are absent or empty); case-insensitive. */
export class DiscoveriesQuery {
  @OptionalNotNull() @IsString() @Matches(/^([A-Za-z]{2})?$/, { message: 'country must be an ISO 3166-1 alpha-2 code' }) country?: string;
  @OptionalNotNull() @IsString() @Matches(/^([A-Za-z]{3})?$/, { message: 'currency must be an ISO 4217 code' }) currency?: string;
}

/** A discovered institution: `bankName` is the value to pass as bankName when creating an external account. */
export interface Discovery {
  /**
   * The value to pass as bankName when creating an external account.
   * @examples ["BDO_UNIBANK"]
   */
  bankName: string;
  /** @examples ["BDO Unibank"] */
  displayName: string;
  /**
   * ISO 3166-1 alpha-2.
   * @pattern ^[A-Z]{2}$
   * @examples ["PH"]
   */
  country: string;
  /**
   * ISO 4217.
   * @pattern ^[A-Z]{3}$
   * @examples ["PHP"]
   */
  currency: string;
}

/** GET /discoveries: institutions from the accounts service's catalogue, not paginated. */
export interface DiscoveryList {
  data: Discovery[];
}
