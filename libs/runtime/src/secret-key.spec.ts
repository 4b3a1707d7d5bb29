import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './config';
import { loadSecretHashKey, requireSecretHashKey } from './secret-key';

describe('SECRET_HASH_KEY: 32 bytes or more everywhere; required in cluster mode', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'pp-key-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const good = randomBytes(32).toString('hex');
  const short = randomBytes(16).toString('hex');

  it('cluster mode: a missing key is refused with a message naming the variable', () => {
    expect(() => requireSecretHashKey({})).toThrow(/SECRET_HASH_KEY is required in cluster mode/);
    expect(() => requireSecretHashKey({ SECRET_HASH_KEY: '' })).toThrow(/SECRET_HASH_KEY is required/);
    expect(requireSecretHashKey({ SECRET_HASH_KEY: good }).toString('hex')).toBe(good);
  });

  it('a key shorter than 32 bytes, or not hex, is refused in cluster mode, in the embedded mode and by loadConfig', () => {
    for (const bad of [short, 'zz'.repeat(32), `${good}x`]) {
      expect(() => requireSecretHashKey({ SECRET_HASH_KEY: bad })).toThrow(/SECRET_HASH_KEY must be at least 64 hex characters \(32 bytes\)/);
      expect(() => loadSecretHashKey(bad, join(dir, 'k'))).toThrow(/SECRET_HASH_KEY must be at least 64 hex characters/);
      expect(() => loadConfig({ SECRET_HASH_KEY: bad })).toThrow(/SECRET_HASH_KEY must be at least 64 hex characters/);
    }
    expect(() => loadConfig({ SECRET_HASH_KEY: good })).not.toThrow();
  });

  it('the embedded mode generates a 32-byte key into the data dir once, and refuses a short one found there', () => {
    const file = join(dir, 'secret-hash.key');
    const key = loadSecretHashKey(undefined, file);
    expect(key.length).toBe(32);
    expect(loadSecretHashKey(undefined, file).equals(key)).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(key.toString('hex'));
    writeFileSync(file, short);
    expect(() => loadSecretHashKey(undefined, file)).toThrow(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} must hold at least 64 hex characters`));
  });
});
