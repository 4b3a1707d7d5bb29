import type { EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { Mode, MODES, PERMISSIONS } from '@payments/contracts';
import { asTransactional, CommandExecutor, retryOnConflict } from '@payments/eventsourcing';
import type { DataSource } from 'typeorm';
import { generateClientId, generateClientSecret, SecretHasher } from '../credentials/secrets';
import { PlatformConfigService } from '../platform-config/platform-config.service';
import { NewCredential, platformDecider, platformStreamId } from './platform.decider';
import { projectPlatform } from './platform.projection';

export interface PlainCredential {
  clientId: string;
  clientSecret: string;
}

export interface CreatedPlatform {
  platformId: string;
  name: string;
  sandbox: PlainCredential;
  production: PlainCredential;
}

/** Creates platforms with one full-permission credential per mode and their initial configurations. */
export class PlatformService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly executor: CommandExecutor<EntityManager>,
    private readonly configs: PlatformConfigService,
    private readonly hasher: SecretHasher,
  ) {}

  /** Secrets are returned here once; only their keyed hashes are stored. */
  async create(name: string, given: Partial<Record<Mode, PlainCredential>> = {}, now = new Date().toISOString()): Promise<CreatedPlatform> {
    const platformId = `Platform:${uuidv7()}`;
    const plain = Object.fromEntries(
      MODES.map((mode) => [mode, given[mode] ?? { clientId: generateClientId(), clientSecret: generateClientSecret() }]),
    ) as Record<Mode, PlainCredential>;
    const credentials: NewCredential[] = MODES.map((mode) => ({
      clientId: plain[mode].clientId,
      name: `${mode.toLowerCase()} bootstrap credential`,
      mode,
      permissions: [...PERMISSIONS],
      secretHash: this.hasher.hash(plain[mode].clientSecret),
    }));
    // Platform and both configs commit together: a platform never exists without its configuration.
    await retryOnConflict(
      () =>
        asTransactional(this.dataSource).transaction(async (tx) => {
          await this.executor.decideAndAppend(tx, {
            decider: platformDecider,
            streamId: platformStreamId(platformId),
            platformId,
            command: { type: 'CreatePlatform', platformId, name, credentials, now },
            project: projectPlatform,
          });
          for (const mode of MODES) await this.configs.initialize(tx, platformId, mode, now);
        }),
      3,
    );
    return { platformId, name, sandbox: plain.SANDBOX, production: plain.PRODUCTION };
  }

  /**
   * Makes sure the credentials from BOOTSTRAP_* exist: creates the first platform with them on first start.
   * Returns undefined when they already exist; refuses a known client id whose secret differs.
   */
  async ensureBootstrap(credentials: Record<Mode, PlainCredential>): Promise<CreatedPlatform | undefined> {
    const rows: { client_id: string; secret_hash: string }[] = await this.dataSource.query(
      `SELECT client_id, secret_hash FROM credentials WHERE client_id = ANY($1)`,
      [MODES.map((m) => credentials[m].clientId)],
    );
    if (rows.length === 0) return this.create('Bootstrap platform', credentials);
    for (const mode of MODES) {
      const row = rows.find((r) => r.client_id === credentials[mode].clientId);
      if (!row || !this.hasher.verify(credentials[mode].clientSecret, row.secret_hash)) {
        throw new Error(`BOOTSTRAP_${mode}_CLIENT_ID/_SECRET do not match the stored credential; keep the original values`);
      }
    }
    return undefined;
  }

  async count(): Promise<number> {
    const [row] = await this.dataSource.query(`SELECT count(*)::int AS n FROM platforms`);
    return row.n;
  }
}
