import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsISO8601, IsString, MaxLength } from 'class-validator';
import { OptionalNotNull } from './optional-not-null';
import { PageQuery } from './pagination/pagination';
import { Mode, Permission, PERMISSIONS } from './rpc/rpc';
import { IsName } from './validators';

/** POST /tokens. */
export class CreateTokenRequest {
  @IsName(255)
  name!: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(PERMISSIONS.length)
  @ArrayUnique()
  @IsIn(PERMISSIONS, { each: true })
  permissions!: Permission[];
}

/** GET /tokens: pagination plus `name` and created/updated ranges. */
export class ListTokensQuery extends PageQuery {
  @OptionalNotNull()
  @IsString()
  @MaxLength(255)
  name?: string;

  @OptionalNotNull()
  @IsISO8601({ strict: true })
  createdAfter?: string;

  @OptionalNotNull()
  @IsISO8601({ strict: true })
  createdBefore?: string;

  @OptionalNotNull()
  @IsISO8601({ strict: true })
  updatedAfter?: string;

  @OptionalNotNull()
  @IsISO8601({ strict: true })
  updatedBefore?: string;
}

/** ApiToken as the API returns it; `clientSecret` only in the response to its creation. */
export interface ApiToken {
  /** @pattern ^Token: */
  id: string;
  name: string;
  permissions: Permission[];
  mode: Mode;
  /** The user name of HTTP Basic. */
  clientId: string;
  /** The password of HTTP Basic; only in the response to the creation, shown once. */
  clientSecret?: string;
  /** @format date-time */
  createdAt: string;
  /** @format date-time */
  updatedAt: string;
}

export const isTokenId = (value: string): boolean => /^Token:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value);
