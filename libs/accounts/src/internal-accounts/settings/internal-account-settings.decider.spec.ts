import { given } from '@payments/eventsourcing';
import { InternalAccountSettingsCommand, internalAccountSettingsDecider } from './internal-account-settings.decider';
import { InternalAccountPrivacyChanged } from './internal-account-settings.events';

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:05:00.000Z';
const accountId = 'InternalAccount:0190f5a0-0000-5000-8000-000000000001';

const setPrivacy = (privateEnabled: boolean, now = T1, sessionId = 'Session:2'): InternalAccountSettingsCommand => ({ type: 'SetPrivacy', accountId, privateEnabled, sessionId, now });
const changed = (privateEnabled: boolean, at: string, sessionId: string): InternalAccountPrivacyChanged => ({ type: 'InternalAccountPrivacyChanged.v1', data: { accountId, privateEnabled, sessionId, at } });

describe('internal account settings decider', () => {
  it('starts with privacy off', () => {
    expect(given(internalAccountSettingsDecider).state).toEqual({ privateEnabled: false });
  });

  it('records enabling privacy, with the session that signed it', () => {
    given(internalAccountSettingsDecider).when(setPrivacy(true, T0, 'Session:1')).then([changed(true, T0, 'Session:1')]);
  });

  it('records disabling privacy once enabled', () => {
    const history = [changed(true, T0, 'Session:1')];
    expect(given(internalAccountSettingsDecider, history).state).toEqual({ privateEnabled: true });
    given(internalAccountSettingsDecider, history).when(setPrivacy(false)).then([changed(false, T1, 'Session:2')]);
  });

  it('appends nothing when the value is already set (nothing changes, not even updatedAt)', () => {
    given(internalAccountSettingsDecider).when(setPrivacy(false)).then([]);
    given(internalAccountSettingsDecider, [changed(true, T0, 'Session:1')]).when(setPrivacy(true)).then([]);
    given(internalAccountSettingsDecider, [changed(true, T0, 'Session:1'), changed(false, T1, 'Session:2')]).when(setPrivacy(false)).then([]);
  });
});
