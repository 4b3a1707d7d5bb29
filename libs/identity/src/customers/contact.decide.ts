import { DomainError } from '@payments/eventsourcing';
import { ContactChannel, CustomerEvent } from './customer.events';
import { ChannelState, CustomerRecord } from './customer.state';

type Issue = { channel: ContactChannel; codeHash: string; expiresAt: string; now: string };
type Confirm = { channel: ContactChannel; codeHash: string; attemptsMax: number; lockMs: number; now: string };

/** Contact verification: only required channels, never twice, not while locked after too many wrong codes. */
function usableChannel(state: CustomerRecord, channel: ContactChannel, now: string): ChannelState | DomainError {
  const current = state.channels[channel];
  if (!current) return new DomainError('CONFLICT', `${channel} verification is not required for this customer's region`);
  if (current.status === 'VERIFIED') return new DomainError('CONFLICT', `${channel} is already verified`);
  if (current.lockedUntil && current.lockedUntil > now) return locked(current);
  return current;
}

export function locked(channel: ChannelState): DomainError {
  return new DomainError('ACCOUNT_LOCKED', 'too many wrong codes; try again later', {
    suspended: true,
    lockedUntil: channel.lockedUntil ?? null,
    failedAttempts: channel.failedAttempts,
  });
}

export function decideIssueCode(command: Issue, state: CustomerRecord): CustomerEvent[] | DomainError {
  const channel = usableChannel(state, command.channel, command.now);
  if (channel instanceof DomainError) return channel;
  return [{ type: 'ContactCodeIssued.v1', data: { channel: command.channel, codeHash: command.codeHash, expiresAt: command.expiresAt, issuedAt: command.now } }];
}

/**
 * A wrong code is recorded (ContactCodeRejected.v1) so attempts count across requests; after `attemptsMax` of them
 * the channel locks for `lockMs`. The service turns that event into the caller's 400 or 423.
 */
export function decideConfirmCode(command: Confirm, state: CustomerRecord): CustomerEvent[] | DomainError {
  const channel = usableChannel(state, command.channel, command.now);
  if (channel instanceof DomainError) return channel;
  if (!channel.codeHash || !channel.codeExpiresAt || channel.codeExpiresAt <= command.now) {
    return new DomainError('INVALID_INPUT', `no active ${command.channel} code: request a new one`, { errors: [{ field: 'code', message: 'expired or never sent' }] });
  }
  if (channel.codeHash === command.codeHash) return [{ type: 'ContactVerified.v1', data: { channel: command.channel, at: command.now } }];
  const failedAttempts = channel.failedAttempts + 1;
  const lockedUntil = failedAttempts >= command.attemptsMax ? new Date(Date.parse(command.now) + command.lockMs).toISOString() : null;
  return [{ type: 'ContactCodeRejected.v1', data: { channel: command.channel, failedAttempts, lockedUntil, at: command.now } }];
}
