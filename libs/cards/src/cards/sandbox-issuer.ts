import { createHash } from 'node:crypto';
import type { IssuerPlan } from './card.events';

/** Activation delay of issuance suffix 005 (scaled by SANDBOX_TIME_SCALE). */
export const DELAYED_ACTIVATION_MS = 30_000;

const suffixOf = (key: string) => key.slice(-3);

/** The sandbox issuer's answer, by the last three characters of platformCardId (else cardholderId). */
export function issuerPlanOf(issuanceKey: string): IssuerPlan {
  switch (suffixOf(issuanceKey)) {
    case '001':
      return 'STAY_PROCESSING';
    case '002':
      return 'REJECT';
    case '005':
      return 'ACTIVATE_LATER';
    default:
      return 'ACTIVATE';
  }
}

/** last4 "deterministic from the suffix": its digits when it ends in four, else digits hashed from the suffix. */
export function last4Of(issuanceKey: string): string {
  const tail = issuanceKey.slice(-4);
  if (/^\d{4}$/.test(tail)) return tail;
  const hash = createHash('sha256').update(suffixOf(issuanceKey)).digest();
  return Array.from(hash.subarray(0, 4), (b) => String(b % 10)).join('');
}

/** A funding source the sandbox issuer refuses to bind: account ids ending in 002 (balance check) or 003 (closed). */
export const sandboxIneligibleSource = (accountId: string) => ['002', '003'].includes(accountId.slice(-3));

/** What a merchant descriptor's suffix makes of an authorization. */
export type DescriptorOutcome = 'DECLINE_INSUFFICIENT_FUNDS' | 'DECLINE_CARD_PAUSED' | 'PULL_LATER' | 'PULL_FAILS' | 'APPROVE';

export function descriptorOutcome(descriptor: string): DescriptorOutcome {
  switch (suffixOf(descriptor)) {
    case '002':
      return 'DECLINE_INSUFFICIENT_FUNDS';
    case '003':
      return 'DECLINE_CARD_PAUSED';
    case '005':
      return 'PULL_LATER';
    case '006':
      return 'PULL_FAILS';
    default:
      return 'APPROVE';
  }
}

/** Delay of a 005 pull (scaled). */
export const DELAYED_PULL_MS = 30_000;
