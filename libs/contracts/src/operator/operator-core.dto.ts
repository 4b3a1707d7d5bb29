import { IsISO8601, IsString, Matches, MaxLength } from 'class-validator';
import { OptionalNotNull } from '../optional-not-null';
import { PageQuery } from '../pagination';
import type { OperatorRole } from './operator';

/** GET /operator/v1/me: the operator these credentials belong to. */
export interface OperatorView {
  id: string;
  name: string;
  role: OperatorRole;
  createdAt: string;
}

/** A platform of the deployment, as an operator sees it (GET /operator/v1/platforms). */
export interface OperatorPlatformView {
  id: string;
  name: string;
  createdAt: string;
}

export class ListOperatorPlatformsQuery extends PageQuery {}

const SHORT = 200;

/** GET /operator/v1/audit-events: newest first; every filter narrows. */
export class ListAuditEventsQuery extends PageQuery {
  @OptionalNotNull() @IsString() @MaxLength(SHORT) operatorId?: string;
  /** An action, or its family with a trailing `.*` (`kyc.*`). */
  @OptionalNotNull() @IsString() @MaxLength(SHORT) @Matches(/^[a-z][a-z0-9.-]*(\.\*)?$/, { message: 'an action such as kyc.approve, or a family such as kyc.*' }) action?: string;
  @OptionalNotNull() @IsString() @MaxLength(SHORT) targetType?: string;
  @OptionalNotNull() @IsString() @MaxLength(SHORT) targetId?: string;
  @OptionalNotNull() @IsString() @MaxLength(SHORT) platformId?: string;
  @OptionalNotNull() @IsISO8601({ strict: true }) occurredAfter?: string;
  @OptionalNotNull() @IsISO8601({ strict: true }) occurredBefore?: string;
}
