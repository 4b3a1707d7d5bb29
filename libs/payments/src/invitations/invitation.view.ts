import type { UmaInvitation } from '@payments/contracts';
import { currencyObject } from '@payments/money';
import type { ExistingInvitation } from './invitation.state';

/** The public UmaInvitation (interop §6.11). */
export function toInvitation(s: ExistingInvitation): UmaInvitation {
  return {
    code: s.code,
    url: s.url,
    status: s.status,
    inviterUma: s.inviterUma,
    ...(s.status === 'CLAIMED' ? { inviteeUma: s.inviteeUma, claimedAt: s.claimedAt } : {}),
    ...(s.firstName !== null ? { firstName: s.firstName } : {}),
    ...(s.amountToSend ? { amountToSend: { amount: s.amountToSend.amount, currency: currencyObject(s.amountToSend.currency) } } : {}),
    createdAt: s.createdAt,
    expiresAt: s.expiresAt,
  };
}
