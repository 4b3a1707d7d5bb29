import type { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { ApiError, CallerContext, CardFundingSourceRef } from '@payments/contracts';
import { CommandExecutor, fold, PostgresEventStore, queryRows } from '@payments/eventsourcing';
import { generateMnemonic } from '@payments/wallet-crypto';
import type { EffectiveWalletConfig, WalletDirectory, WalletOwner } from '../directory/wallet-directory';
import type { WalletServerKeys } from '../keys/server-keys';
import { walletDecider, WalletCommand } from './wallet.decider';
import type { WalletEvent } from './wallet.events';
import { projectWallet } from './wallet.projection';
import type { ActiveWallet, WalletState } from './wallet.state';

type Scope = Pick<CallerContext, 'platformId' | 'mode'>;

export const walletStreamId = (accountId: string) => `EmbeddedWallet:${accountId}`;
const mnemonicContext = (accountId: string) => `${walletStreamId(accountId)}/mnemonic`;
const delegatedKeyContext = (accountId: string, delegatedKeyId: string) => `${walletStreamId(accountId)}/delegated-key/${delegatedKeyId}`;

/**
 * Loads, provisions and changes Embedded Wallets. A wallet comes into being the first time its internal account is
 * used here: accounts confirms it is the caller's EMBEDDED_WALLET account, identity gives the customer's email for
 * its first EMAIL_OTP credential, and a fresh BIP-39 mnemonic is sealed into it.
 */
export class WalletStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: PostgresEventStore,
    private readonly executor: CommandExecutor<EntityManager>,
    private readonly directory: WalletDirectory,
    private readonly keys: WalletServerKeys,
  ) {}

  async read(accountId: string): Promise<WalletState> {
    return fold(walletDecider, (await this.store.readStream(this.dataSource, walletStreamId(accountId))) as unknown as WalletEvent[]);
  }

  /** The caller's wallet of this internal account, provisioned on first use; 404 for anything else. */
  async ofAccount(caller: CallerContext, accountId: string, now: string): Promise<ActiveWallet> {
    const state = await this.read(accountId);
    if (state.status === 'ACTIVE') return owned(state, caller);
    const owner = await this.directory.owner(caller, accountId);
    const firstCredential = owner.email
      ? { id: `AuthMethod:${uuidv7()}`, type: 'EMAIL_OTP' as const, nickname: owner.email, contact: owner.email, createdAt: now }
      : undefined;
    const result = await this.change(caller, accountId, {
      type: 'Provision',
      accountId,
      customerId: owner.customerId,
      platformId: caller.platformId,
      mode: caller.mode,
      organizationId: `Wallet:${uuidv7()}`,
      sealedMnemonic: this.keys.sealer.seal(generateMnemonic(), mnemonicContext(accountId)),
      firstCredential,
      now,
    });
    return owned(result, caller);
  }

  /** The caller's wallet of this internal account if it was provisioned; nothing is provisioned or asked elsewhere. */
  async existing(caller: Scope, accountId: string): Promise<ActiveWallet | undefined> {
    const state = await this.read(accountId);
    return state.status === 'ACTIVE' && state.platformId === caller.platformId && state.mode === caller.mode ? state : undefined;
  }

  /** The wallet a credential or session id belongs to, if it is the caller's; 404 otherwise. */
  async ofId(caller: Scope, id: string, what: string): Promise<ActiveWallet> {
    const [row] = await queryRows<{ account_id: string }>(this.dataSource, `SELECT account_id FROM wallet_index WHERE id = $1 AND platform_id = $2 AND mode = $3`, [
      id, caller.platformId, caller.mode,
    ]);
    if (!row) throw new ApiError('REFERENCE_NOT_FOUND', `${what} not found`);
    const state = await this.read(row.account_id);
    if (state.status !== 'ACTIVE') throw new ApiError('REFERENCE_NOT_FOUND', `${what} not found`);
    return owned(state, caller);
  }

  /** Decides and appends one command on the wallet's stream; answers the state after it. */
  async change(caller: Pick<CallerContext, 'platformId' | 'correlationId'>, accountId: string, command: WalletCommand): Promise<WalletState> {
    const result = await this.executor.execute({
      decider: walletDecider,
      streamId: walletStreamId(accountId),
      command,
      platformId: caller.platformId,
      metadata: { correlationId: caller.correlationId },
      project: projectWallet,
    });
    return result.state;
  }

  /** The platform's Embedded Wallet settings as identity has them now (for a new OTP). */
  walletConfig(caller: CallerContext): Promise<EffectiveWalletConfig> {
    return this.directory.walletConfig(caller);
  }

  /** The customer's contacts as identity has them now (for a new OTP credential). */
  ownerOf(caller: CallerContext, accountId: string): Promise<WalletOwner> {
    return this.directory.owner(caller, accountId);
  }

  mnemonicOf(wallet: ActiveWallet): string {
    return this.keys.sealer.open(wallet.sealedMnemonic, mnemonicContext(wallet.accountId));
  }

  /** The card funding source of this account (cards), when it is an Embedded Wallet of the caller's card; 404 otherwise. */
  fundingSource(caller: CallerContext, cardId: string, accountId: string): Promise<CardFundingSourceRef> {
    return this.directory.fundingSource(caller, cardId, accountId);
  }

  /** A delegated private key (hex) sealed like the mnemonic, bound to its wallet and key id. */
  sealDelegatedKey(accountId: string, delegatedKeyId: string, privateKeyHex: string): string {
    return this.keys.sealer.seal(privateKeyHex, delegatedKeyContext(accountId, delegatedKeyId));
  }

  openDelegatedKey(accountId: string, delegatedKeyId: string, sealed: string): string {
    return this.keys.sealer.open(sealed, delegatedKeyContext(accountId, delegatedKeyId));
  }
}

/** The stream is per internal account id: another tenant's wallet there is answered like none. */
function owned(state: WalletState, caller: Scope): ActiveWallet {
  if (state.status !== 'ACTIVE' || state.platformId !== caller.platformId || state.mode !== caller.mode) {
    throw new ApiError('REFERENCE_NOT_FOUND', 'no Embedded Wallet internal account with this id');
  }
  return state;
}
