import { IsString, MaxLength, MinLength } from 'class-validator';
import { OptionalNotNull } from '../optional-not-null';

export const DELEGATED_KEY_STATUSES = ['PENDING', 'ACTIVE', 'REVOKED'] as const;
export type DelegatedKeyStatus = (typeof DELEGATED_KEY_STATUSES)[number];

/**
 * A server-custodied P-256 key that signs for a card funding source backed by an Embedded Wallet (interop §2.10):
 * PENDING after the second leg, ACTIVE after the third, REVOKED by DELETE. The private key never leaves wallet-auth.
 */
export interface DelegatedKey {
  /** @pattern ^DelegatedKey: */
  id: string;
  cardId: string;
  /** @pattern ^CardFundingSource: */
  fundingSourceId: string;
  accountId: string;
  /** Compressed SEC1 P-256 public key, hex. */
  publicKey: string;
  nickname: string;
  status: DelegatedKeyStatus;
  /** @format date-time */
  createdAt: string;
  /** @format date-time */
  updatedAt: string;
}

/** GET /auth/delegated-keys: not paginated. */
export interface DelegatedKeyList {
  data: DelegatedKey[];
}

/** POST /auth/delegated-keys: the same body on all three legs. */
export class CreateDelegatedKeyRequest {
  @IsString() @MinLength(1) @MaxLength(64) cardId!: string;
  @IsString() @MinLength(1) @MaxLength(64) internalAccountId!: string;
  @IsString() @MinLength(1) @MaxLength(256) nickname!: string;
}

/** GET /auth/delegated-keys: at least one of the two. */
export class ListDelegatedKeysQuery {
  @OptionalNotNull() @IsString() @MinLength(1) @MaxLength(64) accountId?: string;
  @OptionalNotNull() @IsString() @MinLength(1) @MaxLength(64) fundingSourceId?: string;
}

/** WalletAuthRpc.signWithDelegatedKey (cards): the ACTIVE key of a funding source stamps a card payload. */
export interface DelegatedSignatureRequest {
  accountId: string;
  fundingSourceId: string;
  /** What is signed (a card pull: transaction, amount, account). */
  payload: string;
}

/** The stamp (as Service-Wallet-Signature carries one) and the key that made it. */
export interface DelegatedSignature {
  delegatedKeyId: string;
  stamp: string;
}
