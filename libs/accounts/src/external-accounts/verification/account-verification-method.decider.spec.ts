import { given } from '@payments/eventsourcing';
import { accountVerificationMethodDecider, SetAccountVerificationMethod } from './account-verification-method.decider';
import { AccountVerificationMethodEvent } from './account-verification-method.events';

const T0 = '2026-01-01T00:00:00.000Z';
const operator = { id: 'Operator:1', name: 'Ada' };
const set = (method: SetAccountVerificationMethod['method']): SetAccountVerificationMethod => ({ type: 'SetAccountVerificationMethod', currency: 'USD', method, operator, now: T0 });
const setTo = (method: SetAccountVerificationMethod['method'], previous: SetAccountVerificationMethod['method'] | null): AccountVerificationMethodEvent => ({
  type: 'AccountVerificationMethodSet.v1',
  data: { currency: 'USD', method, previous, operatorId: operator.id, operatorName: operator.name, at: T0 },
});

describe('account verification method decider', () => {
  it('sets a currency never configured, the default included (it becomes explicit)', () => {
    expect(given(accountVerificationMethodDecider).state.method).toBeNull();
    given(accountVerificationMethodDecider).when(set('PAYOUT_RAIL')).then([setTo('PAYOUT_RAIL', null)]);
    given(accountVerificationMethodDecider).when(set('OPERATOR_APPROVAL')).then([setTo('OPERATOR_APPROVAL', null)]);
  });

  it('changes the method, naming the previous one; setting the method it has records nothing', () => {
    given(accountVerificationMethodDecider, [setTo('PAYOUT_RAIL', null)]).when(set('OPERATOR_APPROVAL')).then([setTo('OPERATOR_APPROVAL', 'PAYOUT_RAIL')]);
    given(accountVerificationMethodDecider, [setTo('PAYOUT_RAIL', null)]).when(set('PAYOUT_RAIL')).then([]);
    expect(given(accountVerificationMethodDecider, [setTo('PAYOUT_RAIL', null), setTo('OPERATOR_APPROVAL', 'PAYOUT_RAIL')]).state.method).toBe('OPERATOR_APPROVAL');
  });
});
