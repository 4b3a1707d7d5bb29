import { randomBytes } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { ApiError, CallerContext, CreateKycLinkBody, Customer, KYC_LINK_TTL_MS, KycLink, OpenedKycLink } from '@payments/contracts';
import { ClaimInTransaction, CommandExecutor, CommandRequest, IdempotencyClaims, queryRows } from '@payments/eventsourcing';
import { idempotencyScopeOf } from '@payments/runtime';
import { SecretHasher } from '../credentials/secrets';
import { KycLinkCommand, kycLinkDecider, KycLinkState } from './kyc-link.decider';
import { KycLinkEvent } from './kyc-link.events';
import { projectKycLink } from './kyc-link.projection';

const TOKEN = /^[A-Za-z0-9_-]{43}$/; // 32 random bytes, base64url
const PROVIDER = 'SUMSUB' as const; // the spec's only KycProvider; the gateway's sandbox page plays its part

/**
 * Hosted KYC links: single-use, 24 h, issued only once the customer's required contact channels are verified.
 * The token is 256 random bits, shown once in `kycUrl`; only its keyed hash is stored. Neither issuing nor opening
 * changes kycStatus: the verification (POST /verifications) does.
 */
export class KycLinkService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly executor: CommandExecutor<EntityManager>,
    private readonly hasher: SecretHasher,
    private readonly customers: { get(caller: CallerContext, customerId: string): Promise<Customer> },
    private readonly claims: IdempotencyClaims,
  ) {}

  /** One link per Idempotency-Key: a retry (also after a crash) answers the same link, as the first answer showed it. */
  create(caller: CallerContext, body: CreateKycLinkBody, now: string): Promise<KycLink> {
    const linkId = `KycLink:${uuidv7()}`;
    return this.claims.run(idempotencyScopeOf(caller), 'kyc-link-create', linkId, (claim) => this.issue(caller, body, now, linkId, claim), (id) => this.shownAgain(body, id));
  }

  private async issue(caller: CallerContext, body: CreateKycLinkBody, now: string, linkId: string, claim: ClaimInTransaction): Promise<KycLink> {
    const customer = await this.customers.get(caller, body.customerId);
    const unverifiedChannels = Object.entries(customer.contactVerification ?? {}).filter(([, status]) => status !== 'VERIFIED').map(([channel]) => channel);
    // Under an Idempotency-Key the token is derived from the link id with the server key, so a retry can show it again.
    const token = caller.idempotency ? this.derivedToken(linkId) : randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.parse(now) + KYC_LINK_TTL_MS).toISOString();
    await this.execute(linkId, caller.platformId, { correlationId: caller.correlationId, actor: caller.clientId }, claim, {
      type: 'IssueKycLink',
      linkId,
      customerId: customer.id,
      platformId: caller.platformId,
      mode: caller.mode,
      provider: PROVIDER,
      secretHash: this.hashOf(token),
      ...(body.redirectUri ? { redirectUri: body.redirectUri } : {}),
      unverifiedChannels,
      expiresAt,
      now,
    });
    return linkOf(body.publicOrigin, token, expiresAt);
  }

  private async shownAgain(body: CreateKycLinkBody, linkId: string): Promise<KycLink> {
    const [link] = await queryRows<{ expires_at: Date }>(this.dataSource, `SELECT expires_at FROM kyc_links WHERE link_id = $1`, [linkId]);
    if (!link) throw new ApiError('NOT_FOUND', 'no such KYC link');
    return linkOf(body.publicOrigin, this.derivedToken(linkId), link.expires_at.toISOString());
  }

  /** The hosted page was opened: marks the link used (a second open is 410) and says where to send the user. */
  async open(token: string, now: string): Promise<OpenedKycLink> {
    const [link]: { link_id: string; platform_id: string; customer_active: boolean }[] = TOKEN.test(token)
      ? await this.dataSource.query(
          `SELECT l.link_id, l.platform_id, (c.deleted_at IS NULL) AS customer_active FROM kyc_links l JOIN customers c ON c.customer_id = l.customer_id WHERE l.secret_hash = $1`,
          [this.hashOf(token)],
        )
      : [];
    if (!link) throw new ApiError('NOT_FOUND', 'no such KYC link');
    const result = await this.execute(link.link_id, link.platform_id, { correlationId: link.link_id }, undefined, { type: 'OpenKycLink', customerActive: link.customer_active, now });
    return result.state.status === 'OPENED' && result.state.redirectUri ? { redirectUri: result.state.redirectUri } : {};
  }

  private hashOf(token: string): string {
    return this.hasher.hash(`kyc-link/${token}`);
  }

  /** 256 bits keyed by SECRET_HASH_KEY (another purpose than hashOf's); base64url, the shape of a random token. */
  private derivedToken(linkId: string): string {
    return Buffer.from(this.hasher.hash(`kyc-link-token/${linkId}`), 'hex').toString('base64url');
  }

  private execute(linkId: string, platformId: string, metadata: { correlationId?: string; actor?: string }, claim: ClaimInTransaction | undefined, command: KycLinkCommand) {
    const request: CommandRequest<EntityManager, KycLinkState, KycLinkCommand, KycLinkEvent> = { decider: kycLinkDecider, streamId: linkId, platformId, metadata, command, claim, project: projectKycLink };
    return this.executor.execute(request);
  }
}

function linkOf(publicOrigin: string, token: string, expiresAt: string): KycLink {
  return { kycUrl: `${publicOrigin.replace(/\/+$/, '')}/kyc/${token}`, expiresAt, provider: PROVIDER };
}
