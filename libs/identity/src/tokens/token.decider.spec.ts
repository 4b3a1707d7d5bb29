import { given } from '@payments/eventsourcing';
import { tokenDecider as decider } from './token.decider';
import { TokenEvent } from './token.events';

const now = '2026-01-01T00:00:00.000Z';
const create = {
  type: 'CreateToken' as const,
  tokenId: 'Token:t',
  platformId: 'Platform:p',
  mode: 'SANDBOX' as const,
  name: ' ci ',
  permissions: ['MANAGE' as const, 'VIEW' as const],
  clientId: 'c1',
  secretHash: 'ab',
  now,
};
const created: TokenEvent = {
  type: 'TokenCreated.v1',
  data: { tokenId: 'Token:t', platformId: 'Platform:p', mode: 'SANDBOX', name: 'ci', permissions: ['VIEW', 'MANAGE'], clientId: 'c1', secretHash: 'ab', createdAt: now },
};
const del = { type: 'DeleteToken' as const, platformId: 'Platform:p', mode: 'SANDBOX' as const, now };

describe('tokenDecider', () => {
  it('creates a token with a trimmed name and permissions in canonical order', () => {
    given(decider).when(create).then([created]);
  });

  it('rejects an empty, repeated or unknown permission list and a blank name, naming each field', () => {
    const error = given(decider)
      .when({ ...create, name: '', permissions: ['VIEW', 'VIEW', 'ADMIN' as never] })
      .thenFails('INVALID_INPUT');
    expect((error.details!.errors as { field: string }[]).map((e) => e.field)).toEqual(['name', 'permissions.2', 'permissions']);
    given(decider).when({ ...create, permissions: [] }).thenFails('INVALID_INPUT');
  });

  it('deletes once; a second delete, or another platform or mode, finds no token', () => {
    const deleted = given(decider, [created]).when(del).then([
      { type: 'TokenDeleted.v1', data: { tokenId: 'Token:t', platformId: 'Platform:p', mode: 'SANDBOX', clientId: 'c1', deletedAt: now } },
    ]);
    given(decider, [created, ...deleted]).when(del).thenFails('TOKEN_NOT_FOUND');
    given(decider, [created]).when({ ...del, platformId: 'Platform:other' }).thenFails('TOKEN_NOT_FOUND');
    given(decider, [created]).when({ ...del, mode: 'PRODUCTION' }).thenFails('TOKEN_NOT_FOUND');
    given(decider).when(del).thenFails('TOKEN_NOT_FOUND');
  });
});
