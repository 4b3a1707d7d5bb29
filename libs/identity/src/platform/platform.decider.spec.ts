import { given } from '@payments/eventsourcing';
import { platformDecider as decider } from './platform.decider';

const credential = { clientId: 'c1', name: 'sandbox', mode: 'SANDBOX' as const, permissions: ['VIEW' as const], secretHash: 'ab' };
const create = { type: 'CreatePlatform' as const, platformId: 'Platform:p', name: '  Acme  ', credentials: [credential], now: '2026-01-01T00:00:00.000Z' };

describe('platformDecider', () => {
  it('creates a platform with its credentials', () => {
    given(decider).when(create).then([
      { type: 'PlatformCreated.v1', data: { platformId: 'Platform:p', name: 'Acme', createdAt: create.now } },
      { type: 'CredentialIssued.v1', data: { ...credential, issuedAt: create.now } },
    ]);
  });

  it('refuses to create it twice and refuses a blank name', () => {
    const created = given(decider).when(create).then([
      { type: 'PlatformCreated.v1', data: { platformId: 'Platform:p', name: 'Acme', createdAt: create.now } },
      { type: 'CredentialIssued.v1', data: { ...credential, issuedAt: create.now } },
    ]);
    given(decider, created).when(create).thenFails('CONFLICT');
    given(decider).when({ ...create, name: '   ' }).thenFails('INVALID_INPUT');
  });
});
