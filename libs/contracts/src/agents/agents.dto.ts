import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmptyObject,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { CreatePlatformExternalAccountRequest } from '../accounts/external-accounts.dto';
import { OptionalNotNull } from '../optional-not-null';
import { PageQuery } from '../pagination/pagination';
import { LISTED_TRANSACTION_STATUSES, ListedTransactionStatus } from '../transactions/transactions.dto';
import { AGENT_ACTION_STATUSES, AGENT_EXECUTION_MODES, AGENT_PERMISSIONS, AgentActionStatus, AgentExecutionMode, AgentPermission } from './agents';

const CURRENCY = /^[A-Z]{3,5}$/;
const MAX_AMOUNT = Number.MAX_SAFE_INTEGER;
/** An optional amount that may be null (null: no limit). */
const NullableAmount = (): PropertyDecorator => (target: object, key: string | symbol) => {
  ValidateIf((o: Record<string, unknown>) => o[key as string] !== undefined && o[key as string] !== null)(target, key);
  IsInt()(target, key);
  Min(0)(target, key);
  Max(MAX_AMOUNT)(target, key);
};

export class AgentSpendingLimitsDto {
  @IsString() @Matches(CURRENCY) currency!: string;
  @IsInt() @Min(0) @Max(MAX_AMOUNT) perTransactionLimit!: number;
  @NullableAmount() dailyLimit?: number | null;
  @OptionalNotNull() @IsInt() @Min(0) @Max(1_000_000) dailyTransactionLimit?: number;
  @NullableAmount() monthlyLimit?: number | null;
}

/** PATCH of the limits: only what is given changes; a new `currency` recasts the kept limits. */
export class AgentSpendingLimitsUpdateDto {
  @OptionalNotNull() @IsString() @Matches(CURRENCY) currency?: string;
  @OptionalNotNull() @IsInt() @Min(0) @Max(MAX_AMOUNT) perTransactionLimit?: number;
  @NullableAmount() dailyLimit?: number | null;
  @OptionalNotNull() @IsInt() @Min(0) @Max(1_000_000) dailyTransactionLimit?: number;
  @NullableAmount() monthlyLimit?: number | null;
}

export class AgentAccountRuleDto {
  @IsString() @MaxLength(64) accountId!: string;
  @OptionalNotNull() @IsIn(AGENT_EXECUTION_MODES) executionMode?: AgentExecutionMode;
  @NullableAmount() perTransactionLimit?: number | null;
}

export class AgentAccountRestrictionsDto {
  @ValidateIf((o: AgentAccountRestrictionsDto) => o.allowedAccountIds !== undefined && o.allowedAccountIds !== null)
  @IsArray()
  @ArrayMaxSize(100)
  @ArrayUnique()
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  allowedAccountIds?: string[] | null;
  @OptionalNotNull() @IsArray() @ArrayMaxSize(100) @ValidateNested({ each: true }) @Type(() => AgentAccountRuleDto) accountRules?: AgentAccountRuleDto[];
}

export class AgentApprovalThresholdsDto {
  @ValidateIf((o: AgentApprovalThresholdsDto) => o.currency !== undefined || (o.amount !== undefined && o.amount !== null)) @IsString() @Matches(CURRENCY) currency?: string;
  @NullableAmount() amount?: number | null;
}

export class AgentPolicyDto {
  @IsArray() @ArrayMaxSize(AGENT_PERMISSIONS.length) @ArrayUnique() @IsIn(AGENT_PERMISSIONS, { each: true }) permissions!: AgentPermission[];
  @IsIn(AGENT_EXECUTION_MODES) defaultExecutionMode!: AgentExecutionMode;
  @IsNotEmptyObject() @ValidateNested() @Type(() => AgentSpendingLimitsDto) spendingLimits!: AgentSpendingLimitsDto;
  @OptionalNotNull() @ValidateNested() @Type(() => AgentAccountRestrictionsDto) accountRestrictions?: AgentAccountRestrictionsDto;
  @OptionalNotNull() @ValidateNested() @Type(() => AgentApprovalThresholdsDto) approvalThresholds?: AgentApprovalThresholdsDto;
}

/** POST /agents. */
export class CreateAgentRequest {
  @IsString() @MinLength(1) @MaxLength(255) name!: string;
  @IsString() @MaxLength(64) customerId!: string;
  @IsNotEmptyObject() @ValidateNested() @Type(() => AgentPolicyDto) policy!: AgentPolicyDto;
}

/** PATCH /agents/{agentId}. */
export class UpdateAgentRequest {
  @OptionalNotNull() @IsString() @MinLength(1) @MaxLength(255) name?: string;
  @OptionalNotNull() @IsBoolean() isPaused?: boolean;
}

/** PATCH /agents/{agentId}/policy: every field optional; `permissions` replaces the list. */
export class UpdateAgentPolicyRequest {
  @OptionalNotNull() @IsArray() @ArrayMaxSize(AGENT_PERMISSIONS.length) @ArrayUnique() @IsIn(AGENT_PERMISSIONS, { each: true }) permissions?: AgentPermission[];
  @OptionalNotNull() @IsIn(AGENT_EXECUTION_MODES) defaultExecutionMode?: AgentExecutionMode;
  @OptionalNotNull() @ValidateNested() @Type(() => AgentSpendingLimitsUpdateDto) spendingLimits?: AgentSpendingLimitsUpdateDto;
  @OptionalNotNull() @ValidateNested() @Type(() => AgentAccountRestrictionsDto) accountRestrictions?: AgentAccountRestrictionsDto;
  @OptionalNotNull() @ValidateNested() @Type(() => AgentApprovalThresholdsDto) approvalThresholds?: AgentApprovalThresholdsDto;
}

const BOOLEAN_QUERY = ['true', 'false'] as const;

/** GET /agents. */
export class ListAgentsQuery extends PageQuery {
  @OptionalNotNull() @IsString() @MaxLength(64) customerId?: string;
  @OptionalNotNull() @IsIn(BOOLEAN_QUERY) isPaused?: (typeof BOOLEAN_QUERY)[number];
  @OptionalNotNull() @IsIn(BOOLEAN_QUERY) isConnected?: (typeof BOOLEAN_QUERY)[number];
  @OptionalNotNull() @IsISO8601({ strict: true }) createdAfter?: string;
  @OptionalNotNull() @IsISO8601({ strict: true }) createdBefore?: string;
  @OptionalNotNull() @IsISO8601({ strict: true }) updatedAfter?: string;
  @OptionalNotNull() @IsISO8601({ strict: true }) updatedBefore?: string;
}

/** GET /agents/approvals: actions waiting for the platform. */
export class ListAgentApprovalsQuery extends PageQuery {
  @OptionalNotNull() @IsString() @MaxLength(64) agentId?: string;
  @OptionalNotNull() @IsString() @MaxLength(64) customerId?: string;
  @OptionalNotNull() @IsISO8601({ strict: true }) startDate?: string;
  @OptionalNotNull() @IsISO8601({ strict: true }) endDate?: string;
  @OptionalNotNull() @IsIn(['asc', 'desc']) sortOrder?: 'asc' | 'desc';
}

/** GET /agents/me/actions. */
export class ListAgentActionsQuery extends PageQuery {
  @OptionalNotNull() @IsIn(AGENT_ACTION_STATUSES) status?: AgentActionStatus;
}

/** POST /agents/{agentId}/actions/{actionId}/reject. */
export class RejectAgentActionRequest {
  @OptionalNotNull() @IsString() @MaxLength(1024) reason?: string;
}

/** POST /agents/me/external-accounts: the customer is the agent's (customerId may be left out). */
export class AgentCreateExternalAccountRequest extends CreatePlatformExternalAccountRequest {
  @OptionalNotNull() @IsString() @MaxLength(64) customerId?: string;
}

/** GET /agents/me/transactions: the published filters minus the customer ones. */
export class AgentListTransactionsQuery extends PageQuery {
  @OptionalNotNull() @IsString() @MaxLength(255) accountIdentifier?: string;
  @OptionalNotNull() @IsString() @MaxLength(128) reference?: string;
  @OptionalNotNull() @IsIn(LISTED_TRANSACTION_STATUSES) status?: ListedTransactionStatus;
  @OptionalNotNull() @IsIn(['INCOMING', 'OUTGOING', 'CARD']) type?: 'INCOMING' | 'OUTGOING' | 'CARD';
  @OptionalNotNull() @IsISO8601({ strict: true }) startDate?: string;
  @OptionalNotNull() @IsISO8601({ strict: true }) endDate?: string;
  @OptionalNotNull() @IsIn(['asc', 'desc']) sortOrder?: 'asc' | 'desc';
}

/** GET /agents/me/external-accounts. */
export class AgentListExternalAccountsQuery extends PageQuery {
  @OptionalNotNull() @IsString() @Matches(CURRENCY) currency?: string;
}
