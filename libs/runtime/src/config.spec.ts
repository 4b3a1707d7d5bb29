import { loadConfig, trustProxyFrom } from './config';
import { rpcBinding } from './rpc/rpc-binding';

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

describe('TRUST_PROXY (the gateway\'s Express "trust proxy")', () => {
  it('unset or false trusts no proxy; a hop count; a list of addresses, CIDRs and Express\' names', () => {
    expect(trustProxyFrom(undefined)).toBe(false);
    expect(trustProxyFrom('')).toBe(false);
    expect(trustProxyFrom('false')).toBe(false);
    expect(trustProxyFrom('1')).toBe(1);
    expect(trustProxyFrom('10.0.0.0/8, fd00::/8,192.168.1.10,loopback')).toEqual(['10.0.0.0/8', 'fd00::/8', '192.168.1.10', 'loopback']);
    expect(loadConfig({}).trustProxy).toBe(false);
  });

  it.each(['true', '10.0.0.0/33', 'ingress.local', '10.0.0.0/8/1', ',', '::1/129'])('refuses %p with a message naming the setting', (raw) => {
    expect(() => trustProxyFrom(raw)).toThrow(/^TRUST_PROXY must be a hop count/);
  });
});

describe('failed-authentication limits', () => {
  it('default to 10 per client id and 50 per address in 60 s; 0 disables a limit', () => {
    expect(loadConfig({}).authFailures).toEqual({ perClient: 10, perAddress: 50, windowSeconds: 60 });
    expect(loadConfig({ AUTH_FAILURES_PER_CLIENT: '0', AUTH_FAILURES_PER_ADDRESS: '3', AUTH_FAILURE_WINDOW_SECONDS: '5' }).authFailures).toEqual({ perClient: 0, perAddress: 3, windowSeconds: 5 });
  });
});

describe('KYC_APPROVALS_REQUIRED (production KYC/KYB reviews)', () => {
  it('is 2 (four-eyes) unless set to 1', () => {
    expect(loadConfig({}).kycApprovalsRequired).toBe(2);
    expect(loadConfig({ KYC_APPROVALS_REQUIRED: '' }).kycApprovalsRequired).toBe(2);
    expect(loadConfig({ KYC_APPROVALS_REQUIRED: '2' }).kycApprovalsRequired).toBe(2);
    expect(loadConfig({ KYC_APPROVALS_REQUIRED: '1' }).kycApprovalsRequired).toBe(1);
  });

  it.each(['0', '3', 'two', '1.5'])('refuses %p: a typo must not turn four-eyes off nor make approval impossible', (raw) => {
    expect(() => loadConfig({ KYC_APPROVALS_REQUIRED: raw })).toThrow(/KYC_APPROVALS_REQUIRED must be 1 or 2/);
  });
});

describe('RPC_BIND_PORT (replicas sharing a host behind a balancer)', () => {
  it('is unset by default: a service binds the port its callers dial, as before', () => {
    const config = loadConfig({ ACCOUNTS_RPC_PORT: '4202' });
    expect(config.rpcBindPort).toBeUndefined();
    expect(rpcBinding(config, config.accountsRpcPort)).toEqual({ host: '127.0.0.1', port: 4202, listen: true });
  });

  it('when set, the RPC server binds it while callers keep dialling <APP>_RPC_HOST:<APP>_RPC_PORT', () => {
    const config = loadConfig({ RPC_BIND_PORT: '24202', ACCOUNTS_RPC_HOST: 'accounts', ACCOUNTS_RPC_PORT: '4202', RPC_HOST: '0.0.0.0' });
    expect(rpcBinding(config, config.accountsRpcPort)).toEqual({ host: '0.0.0.0', port: 24202, listen: true });
    expect([config.accountsRpcHost, config.accountsRpcPort]).toEqual(['accounts', 4202]);
  });

  it('does not apply to the embedded mode: nothing binds, in-process clients find the server by the dialled port', () => {
    expect(rpcBinding(loadConfig({ RPC_BIND_PORT: '24202' }), 4202, true)).toEqual({ host: '127.0.0.1', port: 4202, listen: false });
  });

  it('refuses what is not a port number', () => {
    expect(() => loadConfig({ RPC_BIND_PORT: 'x' })).toThrow(/RPC_BIND_PORT must be a non-negative integer/);
  });
});
