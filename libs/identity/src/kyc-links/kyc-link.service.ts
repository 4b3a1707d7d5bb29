import { randomBytes } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { ApiError, CallerContext, CreateKycLinkBody, Customer, KYC_LINK_TTL_MS, KycLink, OpenedKycLink } from '@payments/contracts';
import { CommandExecutor, CommandRequest } from '@payments/eventsourcing';
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
  ) {}

  async create(caller: CallerContext, body: CreateKycLinkBody, now: string): Promise<KycLink> {
    const customer = await this.customers.get(caller, body.customerId);
    const unverifiedChannels = Object.entries(customer.contactVerification ?? {}).filter(([, status]) => status !== 'VERIFIED').map(([channel]) => channel);
    const token = randomBytes(32).toString('base64url');
    const linkId = `KycLink:${uuidv7()}`;
    const expiresAt = new Date(Date.parse(now) + KYC_LINK_TTL_MS).toISOString();
    await this.execute(linkId, caller.platformId, { correlationId: caller.correlationId, actor: caller.clientId }, {
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
    return { kycUrl: `${body.publicOrigin.replace(/\/+$/, '')}/kyc/${token}`, expiresAt, provider: PROVIDER };
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
    const result = await this.execute(link.link_id, link.platform_id, { correlationId: link.link_id }, { type: 'OpenKycLink', customerActive: link.customer_active, now });
    return result.state.status === 'OPENED' && result.state.redirectUri ? { redirectUri: result.state.redirectUri } : {};
  }

  private hashOf(token: string): string {
    return this.hasher.hash(`kyc-link/${token}`);
  }

  private execute(linkId: string, platformId: string, metadata: { correlationId?: string; actor?: string }, command: KycLinkCommand) {
    const request: CommandRequest<EntityManager, KycLinkState, KycLinkCommand, KycLinkEvent> = { decider: kycLinkDecider, streamId: linkId, platformId, metadata, command, project: projectKycLink };
    return this.executor.execute(request);
  }
}
