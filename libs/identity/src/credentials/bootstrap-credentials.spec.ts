import { randomBytes } from 'node:crypto';
import { bootstrapFromEnv } from './bootstrap-credentials';
import { generateClientSecret } from './secrets';

describe('BOOTSTRAP_* credentials from the environment', () => {
  const strong = () => randomBytes(24).toString('hex');
  const env = (overrides: Record<string, string> = {}) => ({
    BOOTSTRAP_SANDBOX_CLIENT_ID: 'boot-sandbox',
    BOOTSTRAP_SANDBOX_CLIENT_SECRET: strong(),
    BOOTSTRAP_PRODUCTION_CLIENT_ID: 'boot-production',
    BOOTSTRAP_PRODUCTION_CLIENT_SECRET: strong(),
    ...overrides,
  });

  it('takes four strong values; none is nothing; half a set is an error', () => {
    expect(bootstrapFromEnv(env())).toMatchObject({ SANDBOX: { clientId: 'boot-sandbox' }, PRODUCTION: { clientId: 'boot-production' } });
    expect(bootstrapFromEnv({})).toBeUndefined();
    expect(() => bootstrapFromEnv({ BOOTSTRAP_SANDBOX_CLIENT_ID: 'x' })).toThrow(/set all of/);
    // What `npm start` generates passes its own rule.
    expect(() => bootstrapFromEnv(env({ BOOTSTRAP_SANDBOX_CLIENT_SECRET: generateClientSecret() }))).not.toThrow();
  });

  it.each([
    ['shorter than 32 characters', 'Tr0ub4dor&3-correct-horse-batt'],
    ['32 characters of little variety', 'ab'.repeat(16)],
    ['a guessable word repeated', 'password'.repeat(4)],
  ])('refuses a secret %s, naming the variable and the rule (never the value)', (_why, weak) => {
    for (const name of ['BOOTSTRAP_SANDBOX_CLIENT_SECRET', 'BOOTSTRAP_PRODUCTION_CLIENT_SECRET']) {
      let message = '';
      try {
        bootstrapFromEnv(env({ [name]: weak }));
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(new RegExp(`^${name} is too weak: use at least 32 random characters`));
      expect(message).not.toContain(weak);
    }
  });
});
