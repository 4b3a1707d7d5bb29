import type { DataSource } from 'typeorm';
import { asTransactional, eventsourcingMigrations, runMigrations } from '@payments/eventsourcing';
import { openServiceDatabase } from '@payments/runtime';
import { createTestDatabase, TestDatabase } from '@payments/testing';
import { identityMigrations } from './identity.migrations';
import { PlatformConfigView, toPlatformConfig } from './platform-config/platform-config.entity';
import { webhookKeysMigrations } from './platform-config/webhook-keys.migrations';

const wallet = { appName: 'Acme Wallet', otpLength: 8, sendFromEmailAddress: 'noreply@acme.example' };

/** Migration 4 adds the embedded-wallet configuration to the config view, on a new database as on one in use. */
describe('identity migrations on PostgreSQL', () => {
  let database: TestDatabase;
  const opened: DataSource[] = [];
  const open = async (schema: string) => {
    const dataSource = await openServiceDatabase({ url: database.url, schema, entities: [PlatformConfigView] });
    opened.push(dataSource);
    return dataSource;
  };
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const dataSource of opened) await dataSource.destroy();
    await database?.drop();
  });

  it('on an empty database: the view keeps an embedded-wallet configuration and serves it', async () => {
    const dataSource = await open('identity_empty');
    await runMigrations(asTransactional(dataSource), 'identity_empty', [eventsourcingMigrations, identityMigrations, webhookKeysMigrations]);
    const at = new Date('2026-01-01T00:00:00.000Z');
    const views = dataSource.getRepository(PlatformConfigView);
    await views.save({ platformId: 'Platform:1', mode: 'SANDBOX', configId: 'PlatformConfig:1', umaDomain: null, webhookEndpoint: null, webhookEndpointStatus: 'ACTIVE', supportedCurrencies: [], feeConfigs: [], embeddedWalletConfig: wallet, createdAt: at, updatedAt: at });
    expect(toPlatformConfig((await views.findOneByOrFail({ platformId: 'Platform:1', mode: 'SANDBOX' })))).toMatchObject({ id: 'PlatformConfig:1', embeddedWalletConfig: wallet });
  });

  it('on a populated database: configs written before it have none (omitted from the answer) until one is set', async () => {
    const dataSource = await open('identity_populated');
    const v3 = { ...identityMigrations, migrations: identityMigrations.migrations.filter((m) => m.version <= 3) };
    await runMigrations(asTransactional(dataSource), 'identity_populated', [eventsourcingMigrations, v3, webhookKeysMigrations]);
    await dataSource.query(
      `INSERT INTO identity_populated.platform_configs (platform_id, mode, config_id, uma_domain, supported_currencies, fee_configs, created_at, updated_at)
       VALUES ('Platform:1', 'PRODUCTION', 'PlatformConfig:1', 'acme.example', '[{"currencyCode":"USD"}]', '[]', now(), now())`,
    );

    expect(await runMigrations(asTransactional(dataSource), 'identity_populated', [eventsourcingMigrations, identityMigrations, webhookKeysMigrations])).toEqual([
      'identity:0004_platform_embedded_wallet_config',
    ]);
    const views = dataSource.getRepository(PlatformConfigView);
    const before = await views.findOneByOrFail({ platformId: 'Platform:1', mode: 'PRODUCTION' });
    expect(before.embeddedWalletConfig).toBeNull();
    expect(toPlatformConfig(before)).toMatchObject({ id: 'PlatformConfig:1', umaDomain: 'acme.example', supportedCurrencies: [{ currencyCode: 'USD' }] });
    expect(toPlatformConfig(before)).not.toHaveProperty('embeddedWalletConfig');

    await views.save({ ...before, embeddedWalletConfig: wallet });
    expect(toPlatformConfig(await views.findOneByOrFail({ platformId: 'Platform:1', mode: 'PRODUCTION' })).embeddedWalletConfig).toEqual(wallet);
  });
});
