import { bytesToHex, hexToBytes } from '@noble/hashes/utils';
import { v7 as uuidv7 } from 'uuid';
import type { DataSource } from 'typeorm';
import {
  ApiError,
  CallerContext,
  CreateDelegatedKeyRequest,
  DelegatedKey,
  DelegatedKeyList,
  DelegatedKeyStatus,
  DelegatedSignature,
  DelegatedSignatureRequest,
  invalidInput,
  ListDelegatedKeysQuery,
  SignedBody,
  SignedOutcome,
  SignedRequestChallenge,
} from '@payments/contracts';
import { DomainError, queryRows } from '@payments/eventsourcing';
import { generateP256KeyPair, stampPayload } from '@payments/wallet-crypto';
import { checkSignedRetry, SignedRequest } from '../signed-retry/signed-retry';
import { Answer, delegatedKeyConflict, delegatedSigner } from '../wallets/wallet.decider';
import { challengeAnswer, ChallengeSpec, WalletContext } from '../wallets/wallet-context';
import type { DelegatedKeyRecord } from '../wallets/wallet.events';
import type { ActiveWallet } from '../wallets/wallet.state';
import { toDelegatedKey } from '../wallets/wallet.views';

interface DelegatedKeyRow {
  id: string;
  account_id: string;
  card_id: string;
  funding_source_id: string;
  public_key: string;
  nickname: string;
  status: DelegatedKeyStatus;
  created_at: Date | string;
  updated_at: Date | string;
}

const notFound = () => new ApiError('DELEGATED_KEY_NOT_FOUND', 'delegated key not found');
const refused = (error: DomainError) => new ApiError(error.code, error.message, error.details);
const iso = (value: Date | string) => new Date(value).toISOString();
const COLUMNS = 'id, account_id, card_id, funding_source_id, public_key, nickname, status, created_at, updated_at';

/**
 * Delegated keys (interop §2.10): a server-custodied P-256 key per card funding source backed by an Embedded
 * Wallet, which signs that source's card pulls for the cards service. POST is three legs of the one signed retry
 * (signed-retry.ts) with the same body: leg 1 answers the CREATE_DELEGATED_KEY challenge; leg 2 (signed by a session
 * of the wallet) makes the key, records it PENDING and answers the ACTIVATE_DELEGATED_KEY challenge naming it, in
 * one append; leg 3 (signed likewise) makes it ACTIVE. One ACTIVE key per funding source, checked on every leg and
 * by the decider.
 */
export class DelegatedKeyOperations {
  constructor(
    private readonly ctx: WalletContext,
    private readonly dataSource: DataSource,
  ) {}

  async create(caller: CallerContext, request: SignedBody<CreateDelegatedKeyRequest>, now: string): Promise<SignedOutcome<DelegatedKey, SignedRequestChallenge>> {
    const { signature, ...rest } = request;
    const body = { cardId: rest.cardId, internalAccountId: rest.internalAccountId, nickname: rest.nickname };
    // Every leg: the card still binds this Embedded Wallet of the caller, and the funding source has no ACTIVE key.
    const source = await this.ctx.store.fundingSource(caller, body.cardId, body.internalAccountId);
    const wallet = await this.ctx.store.ofAccount(caller, body.internalAccountId, now);
    const conflict = delegatedKeyConflict(wallet, source.fundingSourceId);
    if (conflict) throw refused(conflict);
    // Legs 2 and 3 carry the same body: the challenge their Request-Id names says which one this is.
    const third = signature.requestId !== undefined && wallet.challenges.some((c) => c.requestId === signature.requestId && c.operation === 'ACTIVATE_DELEGATED_KEY');
    const signed: SignedRequest = { operation: third ? 'ACTIVATE_DELEGATED_KEY' : 'CREATE_DELEGATED_KEY', target: source.fundingSourceId, body };
    const retry = checkSignedRetry(wallet, signature, signed, now);
    if (retry === 'FIRST_LEG') {
      const parameters = { userId: wallet.accountId, cardId: body.cardId, fundingSourceId: source.fundingSourceId, keyName: body.nickname, curve: 'CURVE_P256' };
      const spec: ChallengeSpec = { ...signed, signer: { kind: 'SESSION' }, activity: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2', parameters };
      return { challenge: await this.ctx.challenge(caller, wallet, spec, now) };
    }
    if (!third) return { challenge: await this.createPending(caller, wallet, body, source.fundingSourceId, retry.answer, now) };
    const delegatedKeyId = retry.challenge.delegatedKeyId;
    if (!delegatedKeyId) throw new ApiError('UNAUTHORIZED', 'the Request-Id names no delegated key', { reason: 'the Request-Id names no delegated key' });
    const after = await this.ctx.store.change(caller, wallet.accountId, { type: 'ActivateDelegatedKey', answer: retry.answer, delegatedKeyId, now });
    const key = after.status === 'ACTIVE' ? after.delegatedKeys.find((k) => k.id === delegatedKeyId) : undefined;
    if (!key || after.status !== 'ACTIVE') throw new ApiError('INTERNAL_ERROR', 'the delegated key was not activated');
    return { result: toDelegatedKey(after, key) };
  }

  /** Leg 2: a fresh key, sealed at once; recorded PENDING with the challenge of leg 3 that shows its public key. */
  private async createPending(
    caller: CallerContext,
    wallet: ActiveWallet,
    body: CreateDelegatedKeyRequest,
    fundingSourceId: string,
    answer: Answer,
    now: string,
  ): Promise<SignedRequestChallenge> {
    const id = `DelegatedKey:${uuidv7()}`;
    const pair = generateP256KeyPair();
    const sealedPrivateKey = this.ctx.store.sealDelegatedKey(wallet.accountId, id, bytesToHex(pair.privateKey));
    pair.privateKey.fill(0);
    const key: DelegatedKeyRecord = { id, cardId: body.cardId, fundingSourceId, publicKey: pair.publicKeyCompressed, nickname: body.nickname, sealedPrivateKey, createdAt: now };
    const parameters = {
      apiKeys: [{ apiKeyName: body.nickname, publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' }],
      userId: wallet.accountId,
      cardId: body.cardId,
      fundingSourceId,
      delegatedKeyId: id,
    };
    const spec: ChallengeSpec = { operation: 'ACTIVATE_DELEGATED_KEY', target: fundingSourceId, body, signer: { kind: 'SESSION' }, activity: 'ACTIVITY_TYPE_CREATE_API_KEYS_V2', parameters };
    const challenge = this.ctx.newChallenge(wallet, spec, now, { delegatedKeyId: id });
    await this.ctx.store.change(caller, wallet.accountId, { type: 'CreateDelegatedKey', answer, key, challenge, now });
    return challengeAnswer(challenge);
  }

  /** Keys of an account and/or a funding source of the caller's platform and mode, every status, oldest first. */
  async list(caller: CallerContext, query: ListDelegatedKeysQuery): Promise<DelegatedKeyList> {
    const { accountId, fundingSourceId } = query;
    if (accountId === undefined && fundingSourceId === undefined) throw invalidInput('accountId', 'filter by accountId, fundingSourceId or both');
    const rows = await queryRows<DelegatedKeyRow>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM delegated_keys
        WHERE platform_id = $1 AND mode = $2 AND ($3::text IS NULL OR account_id = $3) AND ($4::text IS NULL OR funding_source_id = $4)
        ORDER BY created_at, id`,
      [caller.platformId, caller.mode, accountId ?? null, fundingSourceId ?? null],
    );
    return { data: rows.map(toView) };
  }

  async get(caller: CallerContext, delegatedKeyId: string): Promise<DelegatedKey> {
    return toView(await this.row(caller, delegatedKeyId));
  }

  /** ACTIVE → REVOKED: from then on the key signs nothing. PENDING or REVOKED: 400 DELEGATED_KEY_NOT_ACTIVE. */
  async revoke(caller: CallerContext, delegatedKeyId: string, now: string): Promise<null> {
    const row = await this.row(caller, delegatedKeyId);
    await this.ctx.store.change(caller, row.account_id, { type: 'RevokeDelegatedKey', delegatedKeyId, now });
    return null;
  }

  /**
   * For cards: the ACTIVE key of the funding source stamps `payload` (the stamp format Service-Wallet-Signature
   * carries). Read from the wallet's stream, so a key revoked a moment ago no longer signs. The private key is opened
   * for this one signature and never leaves the service.
   */
  async sign(caller: CallerContext, request: DelegatedSignatureRequest): Promise<DelegatedSignature> {
    const wallet = await this.ctx.store.existing(caller, request.accountId);
    if (!wallet) throw new ApiError('DELEGATED_KEY_NOT_FOUND', 'the funding source has no ACTIVE delegated key');
    const signer = delegatedSigner(wallet, request.fundingSourceId);
    if (signer instanceof DomainError) throw refused(signer);
    const privateKey = hexToBytes(this.ctx.store.openDelegatedKey(wallet.accountId, signer.id, signer.sealedPrivateKey));
    try {
      return { delegatedKeyId: signer.id, stamp: stampPayload(privateKey, request.payload) };
    } finally {
      privateKey.fill(0);
    }
  }

  private async row(caller: CallerContext, delegatedKeyId: string): Promise<DelegatedKeyRow> {
    const [row] = await queryRows<DelegatedKeyRow>(this.dataSource, `SELECT ${COLUMNS} FROM delegated_keys WHERE id = $1 AND platform_id = $2 AND mode = $3`, [
      delegatedKeyId, caller.platformId, caller.mode,
    ]);
    if (!row) throw notFound();
    return row;
  }
}

function toView(row: DelegatedKeyRow): DelegatedKey {
  return {
    id: row.id,
    cardId: row.card_id,
    fundingSourceId: row.funding_source_id,
    accountId: row.account_id,
    publicKey: row.public_key,
    nickname: row.nickname,
    status: row.status,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}
