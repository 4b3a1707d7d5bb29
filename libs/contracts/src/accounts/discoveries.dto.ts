import { IsString, Matches } from 'class-validator';
import { OptionalNotNull } from '../optional-not-null';

/** GET /discoveries: both filters optional (every institution when both are absent or empty); case-insensitive. */
export class DiscoveriesQuery {
  @OptionalNotNull() @IsString() @Matches(/^([A-Za-z]{2})?$/, { message: 'country must be an ISO 3166-1 alpha-2 code' }) country?: string;
  @OptionalNotNull() @IsString() @Matches(/^([A-Za-z]{3})?$/, { message: 'currency must be an ISO 4217 code' }) currency?: string;
}

/** A discovered institution: `bankName` is the value to pass as bankName when creating an external account. */
export interface Discovery {
  bankName: string;
  displayName: string;
  country: string;
  currency: string;
}
