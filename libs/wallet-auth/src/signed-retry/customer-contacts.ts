import { ApiError, CallerContext, ChangeCustomerContactBody, CustomerContactChanged, RestoreCustomerContactBody, SignedOutcome, SignedRequestChallenge } from '@payments/contracts';
import { queryRows } from '@payments/eventsourcing';
import type { DataSource } from 'typeorm';
import type { WalletContext } from '../wallets/wallet-context';
import type { ActiveWallet } from '../wallets/wallet.state';
import { checkSignedRetry } from './signed-retry';

type Channel = { credentialType: 'EMAIL_OTP' | 'SMS_OTP'; contact: string; field: 'email' | 'phoneNumber' };

/**
 * A customer's email or phone change, as the customer's Embedded Wallets see it: when an EMAIL_OTP (email) or SMS_OTP
 * (phone) credential is tied to it, the change must be signed by a session of one of those wallets, and every tied
 * credential changes with it. Identity records the contact after this answered; if it cannot, it restores.
 */
export class CustomerContacts {
  constructor(
    private readonly ctx: WalletContext,
    private readonly dataSource: DataSource,
  ) {}

  async change(caller: CallerContext, body: ChangeCustomerContactBody, now: string): Promise<SignedOutcome<CustomerContactChanged, SignedRequestChallenge>> {
    const channels = channelsOf(body);
    const wallets = await this.walletsOf(caller, body.customerId);
    const tied = (w: ActiveWallet) => w.credentials.filter((c) => channels.some((ch) => ch.credentialType === c.type));
    const holders = wallets.filter((w) => tied(w).length > 0);
    if (holders.length === 0) return { result: { walletsChanged: 0 } };
    if (channels.length > 1) {
      const message = 'the customer\'s Embedded Wallet credentials follow email and phoneNumber: change them in separate requests';
      throw new ApiError('INVALID_INPUT', message, { errors: [{ field: 'phoneNumber', message }] });
    }
    const [channel] = channels;
    const signer = holders[0];
    const boundCredentialIds = holders.flatMap((w) => tied(w).map((c) => c.id)).sort();
    const operation = channel.field === 'email' ? ('UPDATE_CUSTOMER_EMAIL' as const) : ('UPDATE_CUSTOMER_PHONE' as const);
    const request = { operation, target: body.customerId, body: body.request };
    const retry = checkSignedRetry(signer, body.signature, request, now);
    if (retry === 'FIRST_LEG') {
      const activity = channel.field === 'email' ? 'ACTIVITY_TYPE_UPDATE_USER_EMAIL' : 'ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER';
      const parameters = channel.field === 'email' ? { userEmail: channel.contact, userId: signer.accountId } : { userPhoneNumber: channel.contact, userId: signer.accountId };
      return { challenge: await this.ctx.challenge(caller, signer, { ...request, signer: { kind: 'SESSION' }, activity, parameters }, now, boundCredentialIds) };
    }
    const bound = retry.challenge.boundCredentialIds ?? [];
    if (bound.join() !== boundCredentialIds.join()) {
      throw new ApiError('EMAIL_OTP_CREDENTIAL_SET_CHANGED', 'the wallet credentials tied to this contact changed since the request was signed: start again');
    }
    const previous = tied(signer)[0].contact;
    // The signed wallet first (it uses the challenge up), then the customer's other wallets.
    await this.ctx.store.change(caller, signer.accountId, { type: 'ChangeContact', answer: retry.answer, credentialType: channel.credentialType, contact: channel.contact, now });
    for (const wallet of holders.slice(1)) {
      await this.ctx.store.change(caller, wallet.accountId, { type: 'ChangeContact', credentialType: channel.credentialType, contact: channel.contact, now });
    }
    return { result: { walletsChanged: holders.length, ...(previous ? { previous: { [channel.field]: previous } } : {}) } };
  }

  async restore(caller: CallerContext, body: RestoreCustomerContactBody, now: string): Promise<CustomerContactChanged> {
    const channels = channelsOf(body);
    let walletsChanged = 0;
    for (const wallet of await this.walletsOf(caller, body.customerId)) {
      for (const channel of channels) {
        const state = await this.ctx.store.change(caller, wallet.accountId, { type: 'ChangeContact', credentialType: channel.credentialType, contact: channel.contact, now });
        if (state.status === 'ACTIVE') walletsChanged += 1;
      }
    }
    return { walletsChanged };
  }

  private async walletsOf(caller: CallerContext, customerId: string): Promise<ActiveWallet[]> {
    const rows = await queryRows<{ account_id: string }>(this.dataSource, `SELECT account_id FROM wallets WHERE customer_id = $1 AND platform_id = $2 AND mode = $3 ORDER BY account_id`, [
      customerId, caller.platformId, caller.mode,
    ]);
    const wallets: ActiveWallet[] = [];
    for (const row of rows) {
      const state = await this.ctx.store.read(row.account_id);
      if (state.status === 'ACTIVE') wallets.push(state);
    }
    return wallets;
  }
}

function channelsOf(body: { email?: string; phoneNumber?: string }): Channel[] {
  const channels: Channel[] = [];
  if (body.email !== undefined) channels.push({ credentialType: 'EMAIL_OTP', contact: body.email, field: 'email' });
  if (body.phoneNumber !== undefined) channels.push({ credentialType: 'SMS_OTP', contact: body.phoneNumber, field: 'phoneNumber' });
  return channels;
}
