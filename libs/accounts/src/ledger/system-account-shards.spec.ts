import { SYSTEM_ACCOUNT_SHARDS, systemAccountId, systemAccountShardIds } from './ledger.service';

describe('system account shards', () => {
  const P = 'Platform:p';

  it('puts an entry on one shard, always the same, and spreads entries over every shard', () => {
    const shards = systemAccountShardIds(P, 'SANDBOX', 'CLEARING', 'USD');
    expect(new Set(shards).size).toBe(SYSTEM_ACCOUNT_SHARDS);
    const used = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const id = systemAccountId(P, 'SANDBOX', 'CLEARING', 'USD', `Transaction:${i}/settle`);
      expect(systemAccountId(P, 'SANDBOX', 'CLEARING', 'USD', `Transaction:${i}/settle`)).toBe(id); // a replay has the same legs
      expect(shards).toContain(id);
      used.add(id);
    }
    expect(used.size).toBe(SYSTEM_ACCOUNT_SHARDS);
  });

  it('keeps the unsharded id as shard 0, so balances from before sharding stay in the sum', () => {
    expect(systemAccountShardIds(P, 'SANDBOX', 'CLEARING', 'USD')[0]).toBe(systemAccountId(P, 'SANDBOX', 'CLEARING', 'USD'));
    expect(systemAccountShardIds(P, 'SANDBOX', 'CLEARING', 'EUR')).not.toContain(systemAccountId(P, 'SANDBOX', 'CLEARING', 'USD'));
    expect(systemAccountShardIds(P, 'PRODUCTION', 'CLEARING', 'USD')).not.toContain(systemAccountId(P, 'SANDBOX', 'CLEARING', 'USD'));
  });
});
