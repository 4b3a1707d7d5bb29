import { loadConfig } from './config';

describe('loadConfig: EGRESS_ALLOW_PRIVATE_NETWORKS', () => {
  it('is false unless set to true', () => {
    expect(loadConfig({}).egressAllowPrivateNetworks).toBe(false);
    expect(loadConfig({ EGRESS_ALLOW_PRIVATE_NETWORKS: '' }).egressAllowPrivateNetworks).toBe(false);
    expect(loadConfig({ EGRESS_ALLOW_PRIVATE_NETWORKS: 'false' }).egressAllowPrivateNetworks).toBe(false);
    expect(loadConfig({ EGRESS_ALLOW_PRIVATE_NETWORKS: 'true' }).egressAllowPrivateNetworks).toBe(true);
  });

  it('stops the process on anything else (a typo must not silently decide a security setting)', () => {
    expect(() => loadConfig({ EGRESS_ALLOW_PRIVATE_NETWORKS: 'yes' })).toThrow(/EGRESS_ALLOW_PRIVATE_NETWORKS must be true or false/);
    expect(() => loadConfig({ EGRESS_ALLOW_PRIVATE_NETWORKS: 'TRUE' })).toThrow(/EGRESS_ALLOW_PRIVATE_NETWORKS/);
  });
});
