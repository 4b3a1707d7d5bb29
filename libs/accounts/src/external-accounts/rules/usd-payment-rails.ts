import { AccountInfo, stringField } from './field-rule';

export const USD_PAYMENT_RAILS = ['ACH', 'WIRE', 'RTP', 'FEDNOW'] as const;
export type UsdPaymentRail = (typeof USD_PAYMENT_RAILS)[number];

/** Routing numbers known to receive on the instant rails, when the service has a participant directory. */
export interface InstantRailDirectory {
  rtp: ReadonlySet<string>;
  fedNow: ReadonlySet<string>;
}

/**
 * The `paymentRails` the service sets on a USD account (never accepted on input), in a fixed order:
 * - ACH and WIRE always: an ABA routing number and an account number are all either needs; the intermediary and
 *   FI-to-FI fields only shape a wire.
 * - RTP and FEDNOW when the routing number is a participant of that network in `directory`; without a directory
 *   (the sandbox) every account is taken to be reachable on both.
 */
export function usdPaymentRails(accountInfo: AccountInfo, directory?: InstantRailDirectory): UsdPaymentRail[] {
  const routingNumber = stringField(accountInfo, 'routingNumber');
  const rails: UsdPaymentRail[] = ['ACH', 'WIRE'];
  if (!directory || directory.rtp.has(routingNumber)) rails.push('RTP');
  if (!directory || directory.fedNow.has(routingNumber)) rails.push('FEDNOW');
  return rails;
}
