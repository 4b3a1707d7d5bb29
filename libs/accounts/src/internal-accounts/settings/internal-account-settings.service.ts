import type { DataSource, EntityManager } from 'typeorm';
import {
  ApiError,
  CallerContext,
  canonicalJson,
  InternalAccount,
  invalidInput,
  isInternalAccountId,
  SignedBody,
  SignedOutcome,
  SignedRequestChallenge,
  UpdateInternalAccountBody,
} from '@payments/contracts';
import { CommandExecutor, queryRows } from '@payments/eventsourcing';
import { accountType, LedgerAccountRow, toInternalAccount } from '../internal-account.view';
import { internalAccountSettingsDecider } from './internal-account-settings.decider';
import { internalAccountSettingsStreamId } from './internal-account-settings.events';
import { projectInternalAccountSettings } from './internal-account-settings.projection';
import { SignedRequestAuthorizer } from './wallet-authorizer';

const notFound = () => new ApiError('REFERENCE_NOT_FOUND', 'internal account not found');

/** The fields PATCH /internal-accounts/{id} may change; only those that were sent. */
type InternalAccountUpdate = { privateEnabled?: boolean };

/**
 * PATCH /internal-accounts/{id}: an Embedded Wallet's settings, changed through a signed retry. Wallet-auth issues the
 * challenge (bound to the operation, the account and the body) and checks the signature; the change is appended to
 * the account's own settings stream, never to its ledger stream.
 */
export class InternalAccountSettingsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly executor: CommandExecutor<EntityManager>,
    private readonly wallets: SignedRequestAuthorizer,
  ) {}

  async update(caller: CallerContext, body: SignedBody<UpdateInternalAccountBody>, now: string): Promise<SignedOutcome<InternalAccount, SignedRequestChallenge>> {
    const { accountId, signature } = body;
    const row = await this.customerAccount(caller, accountId);
    if (accountType(row) !== 'EMBEDDED_WALLET') throw invalidInput('id', 'only an Embedded Wallet (EMBEDDED_WALLET) internal account can be updated');
    const update: InternalAccountUpdate = typeof body.privateEnabled === 'boolean' ? { privateEnabled: body.privateEnabled } : {};
    if (update.privateEnabled === undefined) throw invalidInput('privateEnabled', 'send at least one field to update');

    const outcome = await this.wallets.authorize(caller, {
      accountId,
      operation: 'UPDATE_INTERNAL_ACCOUNT',
      target: accountId,
      request: update,
      activity: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
      parameters: {
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_NO_OP',
        payload: Buffer.from(canonicalJson(update), 'utf8').toString('hex'),
        signWith: accountId,
      },
      signature: signature ?? {},
    });
    if (outcome.challenge !== undefined) return { challenge: outcome.challenge };

    await this.executor.execute({
      decider: internalAccountSettingsDecider,
      streamId: internalAccountSettingsStreamId(accountId),
      platformId: caller.platformId,
      metadata: { correlationId: caller.correlationId, actor: caller.clientId },
      command: { type: 'SetPrivacy', accountId, privateEnabled: update.privateEnabled, sessionId: outcome.result.sessionId, now },
      project: projectInternalAccountSettings,
    });
    return { result: toInternalAccount(await this.customerAccount(caller, accountId)) };
  }

  /** A customer's internal account of the caller's platform and mode; anything else is 404. */
  private async customerAccount(caller: CallerContext, accountId: string): Promise<LedgerAccountRow> {
    const rows = isInternalAccountId(accountId)
      ? await queryRows<LedgerAccountRow>(this.dataSource, `SELECT * FROM ledger_accounts WHERE account_id = $1 AND platform_id = $2 AND mode = $3 AND owner = 'CUSTOMER'`, [accountId, caller.platformId, caller.mode])
      : [];
    if (!rows[0]) throw notFound();
    return rows[0];
  }
}
