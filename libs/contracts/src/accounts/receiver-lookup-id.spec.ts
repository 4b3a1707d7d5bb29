import { externalAccountLookupId, isExternalAccountLookupId } from './receiver-lookup-id';

const ACCOUNT = 'ExternalAccount:019542f5-b3e7-1d02-0000-000000000001';
const SANDBOX = { platformId: 'Platform:a', mode: 'SANDBOX' };

describe('external-account lookup ids', () => {
  it('are Lookup: UUIDs (version 8), different each time, that check for what they were issued for', () => {
    const id = externalAccountLookupId(SANDBOX, ACCOUNT);
    expect(id).toMatch(/^Lookup:[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(externalAccountLookupId(SANDBOX, ACCOUNT)).not.toBe(id);
    expect(isExternalAccountLookupId(id, SANDBOX, ACCOUNT)).toBe(true);
  });

  it('do not check for another account, platform or mode, nor when edited', () => {
    const id = externalAccountLookupId(SANDBOX, ACCOUNT);
    expect(isExternalAccountLookupId(id, SANDBOX, ACCOUNT.replace(/1$/, '2'))).toBe(false);
    expect(isExternalAccountLookupId(id, { ...SANDBOX, platformId: 'Platform:b' }, ACCOUNT)).toBe(false);
    expect(isExternalAccountLookupId(id, { ...SANDBOX, mode: 'PRODUCTION' }, ACCOUNT)).toBe(false);
    expect(isExternalAccountLookupId(id.replace(/.$/, (c) => (c === '0' ? '1' : '0')), SANDBOX, ACCOUNT)).toBe(false);
    expect(isExternalAccountLookupId('Lookup:00000000-0000-7000-8000-000000000000', SANDBOX, ACCOUNT)).toBe(false);
    expect(isExternalAccountLookupId('nonsense', SANDBOX, ACCOUNT)).toBe(false);
  });
});
