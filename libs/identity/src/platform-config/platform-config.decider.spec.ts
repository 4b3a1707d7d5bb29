import { given } from '@payments/eventsourcing';
import { platformConfigDecider as decider } from './platform-config.decider';
import { PlatformConfigEvent } from './platform-config.events';

const usd = { currencyCode: 'USD', minAmount: 1, maxAmount: 100, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING' as const] };
const initialized: PlatformConfigEvent = {
  type: 'PlatformConfigInitialized.v1',
  data: { configId: 'PlatformConfig:c', platformId: 'Platform:p', mode: 'PRODUCTION', supportedCurrencies: [usd], at: '2026-01-01T00:00:00.000Z' },
};
const now = '2026-01-02T00:00:00.000Z';

describe('platformConfigDecider', () => {
  it('initializes once; a second initialization is a no-op', () => {
    const init = { type: 'InitializeConfig' as const, configId: 'PlatformConfig:c', platformId: 'Platform:p', mode: 'PRODUCTION' as const, defaults: { supportedCurrencies: [usd] }, now: initialized.data.at };
    given(decider).when(init).then([initialized]);
    given(decider, [initialized]).when(init).then([]);
  });

  it('records only the fields that change', () => {
    given(decider, [initialized])
      .when({ type: 'UpdateConfig', patch: { webhookEndpoint: 'https://x.example/h', supportedCurrencies: [usd] }, now })
      .then([{ type: 'PlatformConfigUpdated.v1', data: { changes: { webhookEndpoint: 'https://x.example/h' }, at: now } }]);
  });

  it('removes the webhook endpoint with null, and folds it away', () => {
    const set: PlatformConfigEvent = { type: 'PlatformConfigUpdated.v1', data: { changes: { webhookEndpoint: 'https://x.example/h' }, at: now } };
    const cleared = given(decider, [initialized, set]).when({ type: 'UpdateConfig', patch: { webhookEndpoint: null }, now }).then([
      { type: 'PlatformConfigUpdated.v1', data: { changes: { webhookEndpoint: null }, at: now } },
    ]);
    const state = [initialized, set, ...cleared].reduce(decider.evolve, decider.initialState);
    expect(state).toMatchObject({ status: 'ACTIVE', updatedAt: now });
    expect('webhookEndpoint' in state).toBe(false);
  });

  it('refuses plain http for production webhooks, unknown and duplicate currencies, and min above max', () => {
    const error = given(decider, [initialized])
      .when({
        type: 'UpdateConfig',
        now,
        patch: {
          webhookEndpoint: 'http://x.example/h',
          supportedCurrencies: [usd, { ...usd }, { ...usd, currencyCode: 'ZZZ' }, { ...usd, currencyCode: 'EUR', minAmount: 500, maxAmount: 10 }],
        },
      })
      .thenFails('INVALID_INPUT');
    expect((error.details!.errors as { field: string }[]).map((e) => e.field)).toEqual([
      'webhookEndpoint',
      'supportedCurrencies.1.currencyCode',
      'supportedCurrencies.2.currencyCode',
      'supportedCurrencies.3.minAmount',
    ]);
  });

  it('accepts USDB, the Embedded Wallet stablecoin, as a supported currency', () => {
    const usdb = { ...usd, currencyCode: 'USDB' };
    given(decider, [initialized])
      .when({ type: 'UpdateConfig', patch: { supportedCurrencies: [usd, usdb] }, now })
      .then([{ type: 'PlatformConfigUpdated.v1', data: { changes: { supportedCurrencies: [usd, usdb] }, at: now } }]);
  });

  it('cannot update a configuration that does not exist', () => {
    given(decider).when({ type: 'UpdateConfig', patch: { umaDomain: 'x.example' }, now }).thenFails('NOT_FOUND');
  });
});

describe('platformConfigDecider: webhook endpoint status', () => {
  const set: PlatformConfigEvent = { type: 'PlatformConfigUpdated.v1', data: { changes: { webhookEndpoint: 'https://x.example/h' }, at: now } };
  const disabled: PlatformConfigEvent = { type: 'WebhookEndpointDisabled.v1', data: { endpoint: 'https://x.example/h', reason: '410 Gone', at: now } };

  it('disables the endpoint that answered 410, once, and not one set meanwhile', () => {
    given(decider, [initialized, set]).when({ type: 'DisableWebhookEndpoint', endpoint: 'https://x.example/h', reason: '410 Gone', now }).then([disabled]);
    given(decider, [initialized, set, disabled]).when({ type: 'DisableWebhookEndpoint', endpoint: 'https://x.example/h', reason: '410 Gone', now }).then([]);
    given(decider, [initialized, set]).when({ type: 'DisableWebhookEndpoint', endpoint: 'https://old.example/h', reason: '410 Gone', now }).then([]);
  });

  it('setting the same endpoint again re-enables it', () => {
    const again = given(decider, [initialized, set, disabled]).when({ type: 'UpdateConfig', patch: { webhookEndpoint: 'https://x.example/h' }, now }).then([
      { type: 'PlatformConfigUpdated.v1', data: { changes: { webhookEndpoint: 'https://x.example/h' }, at: now } },
    ]);
    const state = [initialized, set, disabled, ...again].reduce(decider.evolve, decider.initialState);
    expect(state).toMatchObject({ webhookEndpoint: 'https://x.example/h' });
    expect('webhookEndpointStatus' in state).toBe(false);
    given(decider, [initialized, set]).when({ type: 'UpdateConfig', patch: { webhookEndpoint: 'https://x.example/h' }, now }).then([]);
  });
});

describe('platformConfigDecider: embeddedWalletConfig', () => {
  const update = (embeddedWalletConfig: Record<string, unknown>) => ({ type: 'UpdateConfig' as const, patch: { embeddedWalletConfig }, now });
  const branded: PlatformConfigEvent = {
    type: 'PlatformConfigUpdated.v1',
    data: { changes: { embeddedWalletConfig: { appName: 'Acme Wallet', otpLength: 8, sendFromEmailAddress: 'noreply@acme.example' } }, at: now },
  };
  const fold = (events: PlatformConfigEvent[]) => events.reduce(decider.evolve, decider.initialState);

  it('creates the configuration from the fields sent, and records it whole', () => {
    given(decider, [initialized])
      .when(update({ appName: 'Acme Wallet', otpLength: 8, sendFromEmailAddress: 'noreply@acme.example' }))
      .then([branded]);
    expect(fold([initialized, branded])).toMatchObject({ embeddedWalletConfig: { appName: 'Acme Wallet', otpLength: 8, sendFromEmailAddress: 'noreply@acme.example' } });
  });

  it('merges: the fields sent change, the others stay, and the event carries the merged configuration', () => {
    const merged = { appName: 'Acme Wallet', otpLength: 8, alphanumeric: true, expirationSeconds: 600, sendFromEmailAddress: 'noreply@acme.example' };
    const events = given(decider, [initialized, branded])
      .when(update({ alphanumeric: true, expirationSeconds: 600 }))
      .then([{ type: 'PlatformConfigUpdated.v1', data: { changes: { embeddedWalletConfig: merged }, at: now } }]);
    expect(fold([initialized, branded, ...events])).toMatchObject({ embeddedWalletConfig: merged, supportedCurrencies: [usd], updatedAt: now });
  });

  it('records nothing for a merge that changes nothing, whatever the key order', () => {
    given(decider, [initialized, branded]).when(update({ otpLength: 8 })).then([]);
    given(decider, [initialized, branded]).when(update({})).then([]);
    given(decider, [initialized, branded]).when(update({ sendFromEmailAddress: 'noreply@acme.example', appName: 'Acme Wallet' })).then([]);
  });

  it('creates an empty configuration (every default) for {} on a platform without one', () => {
    given(decider, [initialized]).when(update({})).then([{ type: 'PlatformConfigUpdated.v1', data: { changes: { embeddedWalletConfig: {} }, at: now } }]);
  });

  it('leaves the configuration alone when other fields change', () => {
    const events = given(decider, [initialized, branded]).when({ type: 'UpdateConfig', patch: { umaDomain: 'acme.example' }, now }).then([
      { type: 'PlatformConfigUpdated.v1', data: { changes: { umaDomain: 'acme.example' }, at: now } },
    ]);
    expect(fold([initialized, branded, ...events])).toMatchObject({ umaDomain: 'acme.example', embeddedWalletConfig: branded.data.changes.embeddedWalletConfig });
  });

  it('refuses values out of the published ranges, wrong types, null and unknown fields, naming each field', () => {
    const error = given(decider, [initialized, branded])
      .when(update({ otpLength: 3, expirationSeconds: 86_401, alphanumeric: 'yes', appName: 'x'.repeat(256), logoUrl: null, colour: 'blue', sendFromEmailSenderName: 'Acme' }))
      .thenFails('INVALID_INPUT');
    expect((error.details!.errors as { field: string }[]).map((e) => e.field)).toEqual([
      'embeddedWalletConfig.otpLength',
      'embeddedWalletConfig.expirationSeconds',
      'embeddedWalletConfig.alphanumeric',
      'embeddedWalletConfig.appName',
      'embeddedWalletConfig.logoUrl',
      'embeddedWalletConfig.colour',
    ]);
    given(decider, [initialized]).when(update({ otpLength: 6.5 })).thenFails('INVALID_INPUT');
    given(decider, [initialized]).when(update({ expirationSeconds: 0 })).thenFails('INVALID_INPUT');
    given(decider, [initialized]).when({ type: 'UpdateConfig', patch: { embeddedWalletConfig: null as never }, now }).thenFails('INVALID_INPUT');
  });

  it('accepts the bounds of the published ranges', () => {
    given(decider, [initialized])
      .when(update({ otpLength: 12, expirationSeconds: 86_400 }))
      .then([{ type: 'PlatformConfigUpdated.v1', data: { changes: { embeddedWalletConfig: { otpLength: 12, expirationSeconds: 86_400 } }, at: now } }]);
    given(decider, [initialized])
      .when(update({ otpLength: 4, expirationSeconds: 1 }))
      .then([{ type: 'PlatformConfigUpdated.v1', data: { changes: { embeddedWalletConfig: { otpLength: 4, expirationSeconds: 1 } }, at: now } }]);
  });
});
