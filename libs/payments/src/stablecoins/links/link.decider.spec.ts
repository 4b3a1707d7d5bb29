import { given } from '@payments/eventsourcing';
import { linkDecider, LinkEvent, LinkTerms } from './link.decider';

const at = '2026-11-26T10:00:00.000Z';
const terms: LinkTerms = { linkId: 'StablecoinProviderAccount:1', platformId: 'Platform:1', mode: 'SANDBOX', provider: 'BRALE', providerAccountId: 'acct', providerEnvironment: 'SANDBOX', apiClientId: 'id', sealedSecret: 'v1:x', at };
const linked: LinkEvent = { type: 'StablecoinProviderAccountLinked.v1', data: terms };
const verified = (status: 'ACTIVE' | 'INVALID' | 'REVOKED', when = at): LinkEvent => ({ type: 'StablecoinProviderAccountVerified.v1', data: { status, at: when } });

describe('stablecoin provider account link decider', () => {
  it('an ACTIVE link cannot be linked again; an INVALID one takes new credentials and is ACTIVE again', () => {
    given(linkDecider, [linked]).when({ type: 'Link', terms }).thenFails('CONFLICT');
    const relinked = given(linkDecider, [linked, verified('INVALID')]).when({ type: 'Link', terms: { ...terms, sealedSecret: 'v1:y', at: '2026-11-27T00:00:00.000Z' } });
    relinked.then([{ type: 'StablecoinProviderAccountLinked.v1', data: { ...terms, sealedSecret: 'v1:y', at: '2026-11-27T00:00:00.000Z' } }]);
    expect(given(linkDecider, [linked, verified('INVALID'), { type: 'StablecoinProviderAccountLinked.v1', data: { ...terms, at: '2026-11-27T00:00:00.000Z' } }]).state).toMatchObject({ linkStatus: 'ACTIVE', createdAt: at });
  });

  it('verifications keep lastVerifiedAt for successes only; REVOKED stays revoked; a repeated failure records nothing', () => {
    const later = '2026-11-26T11:00:00.000Z';
    expect(given(linkDecider, [linked, verified('ACTIVE', later)]).state).toMatchObject({ linkStatus: 'ACTIVE', lastVerifiedAt: later });
    expect(given(linkDecider, [linked, verified('INVALID', later)]).state).toMatchObject({ linkStatus: 'INVALID', lastVerifiedAt: at });
    given(linkDecider, [linked, verified('INVALID')]).when({ type: 'RecordVerification', status: 'INVALID', at }).then([]);
    given(linkDecider, [linked, verified('REVOKED')]).when({ type: 'RecordVerification', status: 'ACTIVE', at }).then([]);
    given(linkDecider).when({ type: 'RecordVerification', status: 'ACTIVE', at }).thenFails('STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND');
  });
});
