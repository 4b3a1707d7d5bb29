import type { CustomerCreatedData, KycStatus } from '@payments/contracts';
import { assertNever } from '@payments/eventsourcing';
import { ContactChannel, CustomerEvent, CustomerProfile } from './customer.events';

export interface ChannelState {
  status: 'PENDING' | 'VERIFIED';
  codeHash?: string;
  codeExpiresAt?: string;
  failedAttempts: number;
  lockedUntil?: string;
}

/** The created event's facts (its profile with the identifier), and what later events keep. */
export interface CustomerRecord extends Omit<CustomerCreatedData, 'profile' | 'requiredChannels'> {
  profile: CustomerProfile;
  channels: Partial<Record<ContactChannel, ChannelState>>;
  kycStatus: KycStatus;
  updatedAt: string;
}

export type CustomerState = { status: 'NONE' } | ({ status: 'ACTIVE' } & CustomerRecord) | ({ status: 'DELETED'; deletedAt: string } & CustomerRecord);

const pending = (): ChannelState => ({ status: 'PENDING', failedAttempts: 0 });

export function evolveCustomer(state: CustomerState, event: CustomerEvent): CustomerState {
  if (event.type === 'CustomerCreated.v1') {
    const { requiredChannels, ...d } = event.data;
    return { status: 'ACTIVE', ...d, channels: Object.fromEntries(requiredChannels.map((c) => [c, pending()])), kycStatus: 'UNVERIFIED', updatedAt: d.createdAt };
  }
  if (state.status === 'NONE') return state;
  switch (event.type) {
    case 'CustomerUpdated.v1': {
      const { platformCustomerId, umaAddress, currencies, ...profileChanges } = event.data.changes;
      const channels = Object.fromEntries(
        event.data.requiredChannels.map((c) => [c, !event.data.resetChannels.includes(c) && state.channels[c] ? state.channels[c]! : pending()]),
      );
      return {
        ...state,
        platformCustomerId: platformCustomerId ?? state.platformCustomerId,
        umaAddress: umaAddress ?? state.umaAddress,
        currencies: currencies ?? state.currencies,
        profile: { ...state.profile, ...profileChanges },
        channels,
        updatedAt: event.data.updatedAt,
      };
    }
    case 'CustomerDeleted.v1':
      return { ...state, status: 'DELETED', deletedAt: event.data.deletedAt, updatedAt: event.data.deletedAt };
    case 'ContactCodeIssued.v1':
      return withChannel(state, event.data.channel, { codeHash: event.data.codeHash, codeExpiresAt: event.data.expiresAt });
    case 'ContactCodeRejected.v1':
      return withChannel(state, event.data.channel, { failedAttempts: event.data.failedAttempts, lockedUntil: event.data.lockedUntil ?? undefined });
    case 'ContactVerified.v1':
      return { ...withChannel(state, event.data.channel, { status: 'VERIFIED', codeHash: undefined, codeExpiresAt: undefined, failedAttempts: 0, lockedUntil: undefined }), updatedAt: event.data.at };
    case 'CustomerKycStatusChanged.v1':
      return { ...state, kycStatus: event.data.kycStatus, updatedAt: event.data.at };
    default:
      return assertNever(event);
  }
}

function withChannel<S extends CustomerRecord>(state: S, channel: ContactChannel, change: Partial<ChannelState>): S {
  const current = state.channels[channel];
  if (!current) return state;
  return { ...state, channels: { ...state.channels, [channel]: { ...current, ...change } } };
}
