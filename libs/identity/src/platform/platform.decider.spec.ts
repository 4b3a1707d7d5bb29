import { given } from '@payments/eventsourcing';
import { platformDecider as decider } from './platform.decider';

const create = { type: 'CreatePlatform' as const, platformId: 'Platform:p', name: '  Acme  ', now: '2026-01-01T00:00:00.000Z' };
const created = { type: 'PlatformCreated.v1' as const, data: { platformId: 'Platform:p', name: 'Acme', createdAt: create.now } };

describe('platformDecider', () => {
  it('creates a platform with a trimmed name', () => {
    given(decider).when(create).then([created]);
  });

  it('refuses to create it twice and refuses a blank or overlong name', () => {
    given(decider, [created]).when(create).thenFails('CONFLICT');
    given(decider).when({ ...create, name: '   ' }).thenFails('INVALID_INPUT');
    given(decider).when({ ...create, name: 'x'.repeat(201) }).thenFails('INVALID_INPUT');
  });
});
