import { randomBytes } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { ApiError, CallerContext, ClaimInvitationRequest, CreateInvitationRequest, isInvitationCode, Mode, UmaInvitation } from '@payments/contracts';
import { ClaimInTransaction, CommandExecutor, CommandRequest, EventMetadata, IdempotencyClaims, queryRows, ScheduleTimer, TimerHandler, TimerRow } from '@payments/eventsourcing';
import { idempotencyScopeOf } from '@payments/runtime';
import { findCurrency } from '@payments/money';
import { parseUmaAddress } from '@payments/uma';
import type { CustomerDirectory, KnownCustomer } from '../customers/customer-directory';
import { InvitationCommand, invitationDecider } from './invitation.decider';
import { InvitationEvent, InvitationTerms } from './invitation.events';
import { projectInvitation } from './invitation.projection';
import { InvitationState } from './invitation.state';
import { toInvitation } from './invitation.view';

export const INVITATION_EXPIRY_TIMER = 'payments.invitation.expire';

export interface InvitationOptions {
  /** Where invitation links point: `${publicUrl}/invitations/${code}` (PUBLIC_URL, else the gateway's local URL). */
  publicUrl: string;
  /** Lifetime when the request names no expiresAt (30 days). Real time, never scaled. */
  defaultTtlMs: number;
  /** Longest lifetime a request may ask for (365 days). */
  ttlMaxMs: number;
}

export const INVITATION_DEFAULTS: Omit<InvitationOptions, 'publicUrl'> = { defaultTtlMs: 30 * 24 * 3_600_000, ttlMaxMs: 365 * 24 * 3_600_000 };

type Scope = Pick<CallerContext, 'platformId' | 'mode'>;

const streamOf = (code: string) => `Invitation:${code}`;
const notFound = () => new ApiError('INVITATION_NOT_FOUND', 'invitation not found');
const invalidUma = (field: string) => new ApiError('INVALID_UMA_ADDRESS', `${field} is not a UMA address ($user@domain)`, { errors: [{ field, message: 'must be $user@domain: user of a-z 0-9 . _ - (1 to 64), domain a host name' }] });
const invalid = (code: 'INVALID_INPUT' | 'INVALID_CURRENCY', field: string, message: string) => new ApiError(code, `${field}: ${message}`, { errors: [{ field, message }] });

/**
 * UMA invitations (docs/invitations.md). Codes are shared with the invitee's platform, so GET and claim work for any
 * platform of the invitation's mode; cancel is the creating platform's alone. A durable timer expires PENDING ones.
 */
export class InvitationService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly executor: CommandExecutor<EntityManager>,
    private readonly timers: { schedule(tx: EntityManager, timer: ScheduleTimer): Promise<string> },
    private readonly customers: CustomerDirectory,
    private readonly options: InvitationOptions,
    private readonly claims: IdempotencyClaims,
  ) {}

  /** One invitation per Idempotency-Key: a retry (also after a crash) answers it as it is now. */
  create(caller: CallerContext, request: CreateInvitationRequest, now: string): Promise<UmaInvitation> {
    const code = randomBytes(12).toString('base64url'); // 96 random bits: unguessable, 16 URL-safe characters
    return this.claims.run(idempotencyScopeOf(caller), 'invitation-create', code, (claim) => this.createNew(caller, request, now, code, claim), (existing) => this.get(caller, existing));
  }

  private async createNew(caller: CallerContext, request: CreateInvitationRequest, now: string, code: string, claim: ClaimInTransaction): Promise<UmaInvitation> {
    const inviter = parseUmaAddress(request.inviterUma);
    if (!inviter) throw invalidUma('inviterUma');
    const customer = await this.customers.byUmaAddress(caller, inviter.address);
    if (!customer) throw new ApiError('USER_NOT_FOUND', `no customer of this platform has the UMA address ${inviter.address}`, { errors: [{ field: 'inviterUma', message: 'no such customer' }] });
    const expiresAt = this.expiresAt(request.expiresAt, now);
    const terms: InvitationTerms = {
      code,
      platformId: caller.platformId,
      mode: caller.mode,
      inviterCustomerId: customer.customerId,
      inviterUma: inviter.address,
      firstName: request.firstName ?? null,
      amountToSend: this.amountToSend(request, customer),
      url: `${this.options.publicUrl}/invitations/${code}`,
      createdAt: now,
      expiresAt,
    };
    const result = await this.executor.execute({
      ...this.request(caller.platformId, code, { type: 'CreateInvitation', terms }, this.metadata(caller)),
      claim,
      project: async (tx, events, state) => {
        await projectInvitation(tx, events, state);
        const delayMs = Date.parse(expiresAt) - Date.parse(now);
        await this.timers.schedule(tx, { name: INVITATION_EXPIRY_TIMER, delayMs, realTime: true, streamId: streamOf(code), platformId: caller.platformId, payload: { code } });
      },
    });
    return this.view(result.state);
  }

  /** Any platform of the invitation's mode: the code is the capability. */
  async get(caller: Scope, code: string): Promise<UmaInvitation> {
    return (await this.find(caller.mode, code)).body;
  }

  /** A retry of a claim that went through (also after a crash) answers the invitation instead of 400 INVITATION_ALREADY_CLAIMED. */
  async claim(caller: CallerContext, code: string, request: ClaimInvitationRequest, now: string): Promise<UmaInvitation> {
    const { platformId } = await this.find(caller.mode, code);
    const invitee = parseUmaAddress(request.inviteeUma);
    if (!invitee) throw invalidUma('inviteeUma');
    // The stream (and InvitationClaimed.v1) belongs to the inviter's platform: its webhook goes there.
    const command: InvitationCommand = { type: 'ClaimInvitation', inviteeUma: invitee.address, platformId: caller.platformId, mode: caller.mode, now };
    return this.claims.run(idempotencyScopeOf(caller), 'invitation-claim', code, (claim) => this.change(platformId, code, command, caller, claim), (existing) => this.get(caller, existing));
  }

  /** A retry of a cancel that went through (also after a crash) answers the invitation instead of 400 INVITATION_CANCELLED. */
  async cancel(caller: CallerContext, code: string, now: string): Promise<UmaInvitation> {
    const { platformId } = await this.find(caller.mode, code);
    const command: InvitationCommand = { type: 'CancelInvitation', platformId: caller.platformId, now };
    return this.claims.run(idempotencyScopeOf(caller), 'invitation-cancel', code, (claim) => this.change(platformId, code, command, caller, claim), (existing) => this.get(caller, existing));
  }

  private async change(platformId: string, code: string, command: InvitationCommand, caller: CallerContext, claim: ClaimInTransaction): Promise<UmaInvitation> {
    return this.view((await this.executor.execute({ ...this.request(platformId, code, command, this.metadata(caller)), claim })).state);
  }

  timerHandlers(): Record<string, TimerHandler> {
    return { [INVITATION_EXPIRY_TIMER]: (timer) => this.expire(timer) };
  }

  /** Only a PENDING invitation expires: a repeat (or one claimed or cancelled first) appends nothing. */
  private async expire(timer: TimerRow): Promise<void> {
    const { code } = timer.payload as { code: string };
    const metadata = { correlationId: streamOf(code), causationId: timer.id, actor: 'timer' };
    await this.executor.execute(this.request(timer.platform_id, code, { type: 'ExpireInvitation', now: new Date().toISOString() }, metadata));
  }

  private async find(mode: Mode, code: string): Promise<{ platformId: string; body: UmaInvitation }> {
    const rows = isInvitationCode(code)
      ? await queryRows<{ platform_id: string; body: UmaInvitation }>(this.dataSource, `SELECT platform_id, body FROM invitations WHERE code = $1 AND mode = $2`, [code, mode])
      : [];
    if (!rows[0]) throw notFound();
    return { platformId: rows[0].platform_id, body: rows[0].body };
  }

  private expiresAt(requested: string | undefined, now: string): string {
    if (requested === undefined) return new Date(Date.parse(now) + this.options.defaultTtlMs).toISOString();
    const at = Date.parse(requested);
    if (!Number.isFinite(at) || at <= Date.parse(now)) throw invalid('INVALID_INPUT', 'expiresAt', 'must be in the future');
    if (at - Date.parse(now) > this.options.ttlMaxMs) throw invalid('INVALID_INPUT', 'expiresAt', `must be within ${Math.round(this.options.ttlMaxMs / 86_400_000)} days`);
    return new Date(at).toISOString();
  }

  /** In the request's currency, else the inviter's first; it must be one of the inviter's currencies. */
  private amountToSend(request: CreateInvitationRequest, customer: KnownCustomer): InvitationTerms['amountToSend'] {
    if (request.amountToSend === undefined) {
      if (request.currency !== undefined) throw invalid('INVALID_INPUT', 'currency', 'only with amountToSend');
      return null;
    }
    const currency = request.currency ?? customer.currencies[0];
    if (!currency || !customer.currencies.includes(currency) || !findCurrency(currency)) {
      throw invalid('INVALID_CURRENCY', 'currency', `the inviter holds ${customer.currencies.join(', ') || 'no currency'}`);
    }
    return { amount: request.amountToSend, currency };
  }

  private request(platformId: string | null, code: string, command: InvitationCommand, metadata: EventMetadata): CommandRequest<EntityManager, InvitationState, InvitationCommand, InvitationEvent> {
    return { decider: invitationDecider, streamId: streamOf(code), platformId, metadata, command, project: projectInvitation };
  }

  private metadata(caller: CallerContext): EventMetadata {
    return { correlationId: caller.correlationId, actor: caller.clientId };
  }

  private view(state: InvitationState): UmaInvitation {
    if (state.status === 'NONE') throw notFound();
    return toInvitation(state);
  }
}
