import type { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { Mode, MODES, PERMISSIONS } from '@payments/contracts';
import { CommandExecutor, retryOnConflict } from '@payments/eventsourcing';
import { SecretHasher } from '../credentials/secrets';
import { PlatformConfigService } from '../platform-config/platform-config.service';
import { TokenService } from '../tokens/token.service';
import { platformDecider } from './platform.decider';
import { projectPlatform } from './platform.projection';

/** Serialises the bootstrap of replicas starting together (an advisory lock key, in identity's database). */
const BOOTSTRAP_LOCK = 'identity.bootstrap';

export interface PlainCredential {
  clientId: string;
  clientSecret: string;
}

export interface CreatedPlatform {
  platformId: string;
  name: string;
  sandbox: PlainCredential & { tokenId: string };
  production: PlainCredential & { tokenId: string };
}

/** Creates platforms with one full-permission API token per mode and their initial configurations. */
export class PlatformService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly executor: CommandExecutor<EntityManager>,
    private readonly configs: PlatformConfigService,
    private readonly tokens: TokenService,
    private readonly hasher: SecretHasher,
  ) {}

  /** Secrets are returned here once; only their keyed hashes are stored. */
  async create(name: string, given: Partial<Record<Mode, PlainCredential>> = {}, now = new Date().toISOString()): Promise<CreatedPlatform> {
    // Platform, tokens and configs commit together: a platform never exists half-made.
    return retryOnConflict(() => this.dataSource.transaction((tx) => this.createIn(tx, name, given, now)), 3);
  }

  private async createIn(tx: EntityManager, name: string, given: Partial<Record<Mode, PlainCredential>>, now: string): Promise<CreatedPlatform> {
    const platformId = `Platform:${uuidv7()}`;
    await this.executor.decideAndAppend(tx, {
      decider: platformDecider,
      streamId: platformId,
      platformId,
      command: { type: 'CreatePlatform', platformId, name, now },
      project: projectPlatform,
    });
    const tokens: Partial<Record<Mode, PlainCredential & { tokenId: string }>> = {};
    for (const mode of MODES) {
      await this.configs.initialize(tx, platformId, mode, now);
      const token = await this.tokens.issue(tx, { platformId, mode, name: `${mode.toLowerCase()} bootstrap token`, permissions: [...PERMISSIONS], ...given[mode] }, now);
      tokens[mode] = { tokenId: token.id, clientId: token.clientId, clientSecret: token.clientSecret! };
    }
    const issued = tokens as Record<Mode, PlainCredential & { tokenId: string }>;
    return { platformId, name: name.trim(), sandbox: issued.SANDBOX, production: issued.PRODUCTION };
  }

  /**
   * Makes sure the credentials from BOOTSTRAP_* exist: creates the first platform with them on first start.
   * Returns undefined when they already exist; refuses a known client id whose secret differs.
   */
  async ensureBootstrap(credentials: Record<Mode, PlainCredential>): Promise<CreatedPlatform | undefined> {
    const now = new Date().toISOString();
    return retryOnConflict(
      () =>
        this.dataSource.transaction(async (tx) => {
          // Every identity replica of a first install runs this at once on the empty database: one at a time, so one
          // creates the platform and the others, once it committed, find its tokens (the check sees each commit).
          await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [BOOTSTRAP_LOCK]);
          const rows: { client_id: string; secret_hash: string }[] = await tx.query(
            `SELECT client_id, secret_hash FROM api_tokens WHERE client_id = ANY($1) AND deleted_at IS NULL`,
            [MODES.map((m) => credentials[m].clientId)],
          );
          if (rows.length === 0) return this.createIn(tx, 'Bootstrap platform', credentials, now);
          for (const mode of MODES) {
            const row = rows.find((r) => r.client_id === credentials[mode].clientId);
            if (!row || !this.hasher.verify(credentials[mode].clientSecret, row.secret_hash)) {
              throw new Error(`BOOTSTRAP_${mode}_CLIENT_ID/_SECRET do not match an active stored token; keep the original values`);
            }
          }
          return undefined;
        }),
      3,
    );
  }

  async count(): Promise<number> {
    const [row] = await this.dataSource.query(`SELECT count(*)::int AS n FROM platforms`);
    return row.n;
  }
}
