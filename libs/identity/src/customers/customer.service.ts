import { randomInt } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import {
  ApiError,
  CallerContext,
  CreateCustomerRequest,
  Customer,
  EndUserTerms,
  isCustomerId,
  ListCustomersQuery,
  Page,
  SignedOutcome,
  SignedRequestChallenge,
  UpdateCustomerRequest,
  WalletSignatureHeaders,
} from '@payments/contracts';
import { ClaimInTransaction, CommandExecutor, CommandRequest, IdempotencyClaims } from '@payments/eventsourcing';
import { idempotencyScopeOf, keysetBodyPage } from '@payments/runtime';
import { SecretHasher } from '../credentials/secrets';
import { PlatformConfigView } from '../platform-config/platform-config.entity';
import { effectiveUmaDomain } from '../platform-config/uma-domain';
import { ContactCodeSender } from '@payments/runtime';
import type { WalletContacts } from './wallet-contacts';
import { IdentityChanges, NO_IDENTITY_CHANGES } from '../kyc-reviews/identity-changes';
import { materialCustomerFields } from '../kyc-reviews/material-identity';
import { locked } from './contact.decide';
import { CustomerCommand, customerDecider } from './customer.decider';
import { ContactChannel, CustomerEvent } from './customer.events';
import { projectCustomer } from './customer.projection';
import { CustomerState } from './customer.state';
import { customerListFilters } from './customer-list.filters';
import { toCustomer } from './customer.view';

export interface CustomerServiceOptions {
  terms: EndUserTerms;
  sender: ContactCodeSender;
  /** wallet-auth: a contact tied to Embedded Wallet credentials changes only with a wallet's signature, and with them. */
  wallets: WalletContacts;
  sandboxCode: string;
  codeTtlMs: number;
  codeAttemptsMax: number;
  codeLockMs: number;
}

/** Customers and their contact verification. Reads come from the `customers` read model, writes from the decider. */
export class CustomerService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly executor: CommandExecutor<EntityManager>,
    private readonly hasher: SecretHasher,
    private readonly options: CustomerServiceOptions,
    private readonly claims: IdempotencyClaims,
    private readonly identityChanges: IdentityChanges = NO_IDENTITY_CHANGES,
  ) {}

  endUserTerms(): EndUserTerms {
    return this.options.terms;
  }

  /** One customer per Idempotency-Key: a retry (also after a crash) answers it as it is now. */
  create(caller: CallerContext, request: CreateCustomerRequest, now: string): Promise<Customer> {
    const customerId = `Customer:${uuidv7()}`;
    return this.claims.run(idempotencyScopeOf(caller), 'customer-create', customerId, (claim) => this.createNew(caller, request, now, customerId, claim), (id) => this.get(caller, id));
  }

  private async createNew(caller: CallerContext, request: CreateCustomerRequest, now: string, customerId: string, claim: ClaimInTransaction): Promise<Customer> {
    const config = await this.dataSource.getRepository(PlatformConfigView).findOneBy({ platformId: caller.platformId, mode: caller.mode });
    const supported = (config?.supportedCurrencies ?? []).map((c) => c.currencyCode);
    const currencies = request.currencies ?? supported;
    const unsupported = currencies.filter((c) => !supported.includes(c));
    if (unsupported.length > 0) throw new ApiError('INVALID_CURRENCY', `currencies not enabled for this platform: ${unsupported.join(', ')}`, { errors: unsupported.map((c) => ({ field: 'currencies', message: `${c} is not a supported currency` })) });
    const platformCustomerId = request.platformCustomerId ?? customerId.slice('Customer:'.length);
    const umaAddress = request.umaAddress ?? this.defaultUmaAddress(caller, platformCustomerId, config?.umaDomain ?? null);
    await this.assertUnique(caller, platformCustomerId, umaAddress);
    const command: CustomerCommand = { type: 'CreateCustomer', customerId, platformId: caller.platformId, mode: caller.mode, request, platformCustomerId, umaAddress, currencies, currentTermsVersion: this.options.terms.version, now };
    return this.run(caller, customerId, command, claim);
  }

  async get(caller: CallerContext, customerId: string): Promise<Customer> {
    const row = await this.row(caller, customerId);
    if (!row || row.deleted_at) throw customerNotFound();
    return row.body;
  }

  list(caller: CallerContext, query: ListCustomersQuery): Promise<Page<Customer>> {
    const where = customerListFilters(caller, query);
    return keysetBodyPage<Customer>({ db: this.dataSource, table: 'customers', keyColumn: 'customer_id', where, limit: query.limit, cursor: query.cursor });
  }

  /**
   * PATCH /customers/{id}. A change of the email or phone that the customer's Embedded Wallet credentials are tied to
   * is a signed retry (wallet-auth answers the challenge, then changes those credentials); if the customer's own
   * change then fails, the credentials are put back, else 424 EMAIL_OTP_CREDENTIAL_SYNC_FAILED.
   */
  async update(caller: CallerContext, customerId: string, request: UpdateCustomerRequest, now: string, signature: WalletSignatureHeaders = {}): Promise<SignedOutcome<Customer, SignedRequestChallenge>> {
    const current = await this.get(caller, customerId);
    if (request.platformCustomerId !== undefined || request.umaAddress !== undefined) await this.assertUnique(caller, request.platformCustomerId, request.umaAddress, customerId);
    const command: CustomerCommand = { type: 'UpdateCustomer', request, currentTermsVersion: this.options.terms.version, now };
    const contact = {
      ...(request.email !== undefined && request.email !== current.email ? { email: request.email } : {}),
      ...(request.phoneNumber !== undefined && request.phoneNumber !== current.phoneNumber ? { phoneNumber: request.phoneNumber } : {}),
    };
    if (Object.keys(contact).length === 0) return { result: await this.updated(caller, customerId, request, command, now) };
    const wallets = await this.options.wallets.change(caller, { customerId, ...contact, request, signature });
    if (wallets.challenge) return { challenge: wallets.challenge };
    try {
      return { result: await this.updated(caller, customerId, request, command, now) };
    } catch (error) {
      const { walletsChanged, previous } = wallets.result;
      if (walletsChanged > 0 && previous) {
        await this.options.wallets.restore(caller, { customerId, ...previous }).catch(() => {
          throw new ApiError('EMAIL_OTP_CREDENTIAL_SYNC_FAILED', 'the wallet credentials changed but the customer could not be: they could not be put back; retry the change');
        });
      }
      throw error;
    }
  }

  /** The change, then (production) a review waiting for this customer rechecks the identity it is about. */
  private async updated(caller: CallerContext, customerId: string, request: UpdateCustomerRequest, command: CustomerCommand, now: string): Promise<Customer> {
    const customer = await this.run(caller, customerId, command);
    const sent = Object.entries(request).flatMap(([field, value]) => (value === undefined ? [] : [field]));
    if (caller.mode === 'PRODUCTION' && materialCustomerFields(sent).length > 0) await this.identityChanges.changed(customerId, caller.correlationId, now);
    return customer;
  }

  /** Answers the customer as it was deleted (`isDeleted: true`), as the published API does. */
  async delete(caller: CallerContext, customerId: string, now: string): Promise<Customer> {
    const row = await this.row(caller, customerId);
    if (!row) throw customerNotFound();
    return this.run(caller, customerId, { type: 'DeleteCustomer', now });
  }

  /** Sends (or resends) a one-time code. Sandbox: always the fixed code, nothing delivered. */
  async sendCode(caller: CallerContext, customerId: string, channel: ContactChannel, now: string): Promise<{ channel: ContactChannel; status: 'PENDING'; expiresAt: string }> {
    const customer = await this.get(caller, customerId);
    const sandbox = caller.mode === 'SANDBOX';
    const destination = channel === 'email' ? customer.email : customer.phoneNumber;
    // A code production cannot deliver is not issued (501 before anything is recorded).
    if (!sandbox && destination) this.options.sender.assertConfigured();
    const code = sandbox ? this.options.sandboxCode : String(randomInt(0, 1_000_000)).padStart(6, '0');
    const expiresAt = new Date(Date.parse(now) + this.options.codeTtlMs).toISOString();
    await this.run(caller, customerId, { type: 'IssueContactCode', channel, codeHash: this.hasher.hash(`${customerId}/${channel}/${code}`), expiresAt, now });
    if (!sandbox && destination) await this.options.sender.send({ customerId, channel, destination, code, purpose: 'CONTACT_VERIFICATION' });
    return { channel, status: 'PENDING', expiresAt };
  }

  async confirmCode(caller: CallerContext, customerId: string, channel: ContactChannel, code: string, now: string): Promise<Customer> {
    await this.get(caller, customerId);
    const { codeAttemptsMax: attemptsMax, codeLockMs: lockMs } = this.options;
    const codeHash = this.hasher.hash(`${customerId}/${channel}/${code}`);
    const result = await this.execute(caller, customerId, { type: 'ConfirmContactCode', channel, codeHash, attemptsMax, lockMs, now });
    const rejected = result.events.find((e) => e.type === 'ContactCodeRejected.v1');
    if (rejected && result.state.status === 'ACTIVE') {
      const state = result.state.channels[channel]!;
      if (state.lockedUntil) throw locked(state);
      throw new ApiError('INVALID_INPUT', 'the code is not correct', { errors: [{ field: 'code', message: 'wrong code' }], attemptsLeft: attemptsMax - state.failedAttempts });
    }
    return toCustomer(result.state as Exclude<CustomerState, { status: 'NONE' }>);
  }

  private async run(caller: CallerContext, customerId: string, command: CustomerCommand, claim?: ClaimInTransaction): Promise<Customer> {
    const result = await this.execute(caller, customerId, command, claim);
    if (result.state.status === 'NONE') throw customerNotFound();
    return toCustomer(result.state);
  }

  private async execute(caller: CallerContext, customerId: string, command: CustomerCommand, claim?: ClaimInTransaction) {
    const request: CommandRequest<EntityManager, CustomerState, CustomerCommand, CustomerEvent> = {
      decider: customerDecider,
      streamId: customerId,
      platformId: caller.platformId,
      metadata: { correlationId: caller.correlationId, actor: caller.clientId },
      command,
      claim,
      project: projectCustomer,
      newStream: command.type === 'CreateCustomer', // its id was generated for this request (create)
    };
    try {
      return await this.executor.execute(request);
    } catch (error) {
      throw uniqueViolation(error) ?? error;
    }
  }

  private async row(caller: CallerContext, customerId: string): Promise<{ body: Customer; deleted_at: Date | null } | undefined> {
    if (!isCustomerId(customerId)) return undefined;
    const rows = await this.dataSource.query(`SELECT body, deleted_at FROM customers WHERE customer_id = $1 AND platform_id = $2 AND mode = $3`, [customerId, caller.platformId, caller.mode]);
    return rows[0];
  }

  private async assertUnique(caller: CallerContext, platformCustomerId: string | undefined, umaAddress: string | undefined, except = ''): Promise<void> {
    const rows: { platform_customer_id: string; uma_address: string }[] = await this.dataSource.query(
      `SELECT platform_customer_id, uma_address FROM customers
        WHERE platform_id = $1 AND mode = $2 AND deleted_at IS NULL AND customer_id <> $5 AND (platform_customer_id = $3 OR lower(uma_address) = lower($4))`,
      [caller.platformId, caller.mode, platformCustomerId ?? null, umaAddress ?? null, except],
    );
    if (rows.some((r) => r.platform_customer_id === platformCustomerId)) throw duplicatePlatformCustomerId();
    if (rows.length > 0) throw duplicateUmaAddress();
  }

  private defaultUmaAddress(caller: CallerContext, platformCustomerId: string, umaDomain: string | null): string {
    const domain = effectiveUmaDomain(umaDomain, caller.mode);
    if (!domain) throw new ApiError('INVALID_INPUT', 'send umaAddress, or set umaDomain in the platform configuration', { errors: [{ field: 'umaAddress', message: 'required without a platform umaDomain' }] });
    const user = platformCustomerId.toLowerCase().replace(/[^a-z0-9._-]/g, '-').slice(0, 64);
    return `$${user}@${domain}`;
  }
}

/** The published 404 code for a customer. */
const customerNotFound = () => new ApiError('USER_NOT_FOUND', 'customer not found');
const duplicatePlatformCustomerId = () => new ApiError('CONFLICT', 'a customer with this platformCustomerId already exists', { errors: [{ field: 'platformCustomerId', message: 'already in use' }] });
const duplicateUmaAddress = () => new ApiError('UMA_ADDRESS_EXISTS', 'a customer with this umaAddress already exists', { errors: [{ field: 'umaAddress', message: 'already in use' }] });

/** Two concurrent creates can both pass the pre-check; the unique indexes decide, and the loser gets the same 409. */
function uniqueViolation(error: unknown): ApiError | undefined {
  const e = error as { code?: string; constraint?: string; driverError?: { code?: string; constraint?: string } };
  const constraint = e.constraint ?? e.driverError?.constraint;
  if ((e.code ?? e.driverError?.code) !== '23505') return undefined;
  if (constraint === 'customers_platform_customer_id_key') return duplicatePlatformCustomerId();
  if (constraint === 'customers_uma_address_key') return duplicateUmaAddress();
  return undefined;
}

