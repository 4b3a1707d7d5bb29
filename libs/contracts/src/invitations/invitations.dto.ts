import { IsInt, IsISO8601, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { OptionalNotNull } from '../optional-not-null';
import { IsName } from '../validators';
import type { CurrencyAmount } from '../accounts/internal-accounts.dto';

/** interop §6.11; the spec's state table: PENDING → CLAIMED | CANCELLED, and EXPIRED at `expiresAt`. */
export const INVITATION_STATUSES = ['PENDING', 'CLAIMED', 'EXPIRED', 'CANCELLED'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/** Longest accepted UMA address (`$` + 64 + `@` + 253); the exact rule is libs/uma's parser (400 INVALID_UMA_ADDRESS). */
const UMA_ADDRESS_LENGTH_MAX = 319;

/** POST /invitations: an invitation from one of the platform's customers, found by its UMA address. */
export class CreateInvitationRequest {
  @IsString() @MaxLength(UMA_ADDRESS_LENGTH_MAX) inviterUma!: string;
  @OptionalNotNull() @IsName(100) firstName?: string;
  /** What the inviter offers to send, in the smallest unit of `currency`. */
  @OptionalNotNull() @IsInt() @Min(1) @Max(Number.MAX_SAFE_INTEGER) amountToSend?: number;
  /** Currency of `amountToSend` (one of the inviter's currencies); defaults to the inviter's first currency. */
  @OptionalNotNull() @IsString() @Matches(/^[A-Z]{3,5}$/) currency?: string;
  /** Must be in the future; defaults to 30 days after creation, at most 365 days. */
  @OptionalNotNull() @IsISO8601({ strict: true }) expiresAt?: string;
}

/** POST /invitations/{invitationCode}/claim. */
export class ClaimInvitationRequest {
  @IsString() @MaxLength(UMA_ADDRESS_LENGTH_MAX) inviteeUma!: string;
}

/** The public UmaInvitation (interop §6.11). */
export interface UmaInvitation {
  /**
   * Unguessable; share it (or `url`) with the invitee.
   * @pattern ^[A-Za-z0-9_-]{16}$
   */
  code: string;
  /**
   * The invitation link: `<PUBLIC_URL>/invitations/<code>`.
   * @format uri
   */
  url: string;
  status: InvitationStatus;
  /** The inviting customer's UMA address, lower case. */
  inviterUma: string;
  /** Set by the claim. */
  inviteeUma?: string;
  /** The invitee's first name, as the inviter gave it. */
  firstName?: string;
  amountToSend?: CurrencyAmount;
  /** @format date-time */
  createdAt: string;
  /** @format date-time */
  claimedAt?: string;
  /** @format date-time */
  expiresAt: string;
}

/** Invitation codes: 16 URL-safe characters (96 random bits). Anything else is an unknown code (404). */
export const isInvitationCode = (value: string): boolean => /^[A-Za-z0-9_-]{16}$/.test(value);

/** The payments topic's contract for a claim: sent as INVITATION_CLAIMED to the inviting platform (the event's platformId). */
export const INVITATION_CLAIMED_EVENT = 'InvitationClaimed.v1';

export interface InvitationClaimedData {
  code: string;
  mode: 'SANDBOX' | 'PRODUCTION';
  inviteeUma: string;
  claimedAt: string;
  /** The platform whose credentials claimed it (the invitee's platform); not in the public view. */
  claimedByPlatformId: string;
  /** The UmaInvitation after the claim: the webhook's `data`. */
  invitation: UmaInvitation;
}
