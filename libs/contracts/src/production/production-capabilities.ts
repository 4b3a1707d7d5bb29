import { ApiError } from '../errors/api-error';
import { productionRailFor } from './rails-config';

/**
 * What a production request needs that this deployment may not have. Each is refused with 501 NOT_IMPLEMENTED before
 * anything is recorded, held or sent, with `details.capability` and `details.configure` naming what an operator sets
 * up to make it work (docs/production.md lists them).
 */
export type ProductionCapability =
  | 'PAYOUT_RAIL'
  | 'PULL_RAIL'
  | 'COLLECTION_DETAILS'
  | 'UMA_PROTOCOL_CLIENT'
  | 'SMS_PROVIDER'
  | 'CONTACT_DELIVERY'
  | 'CARD_ISSUER'
  | 'STABLECOIN_PROVIDER'
  | 'WITHDRAWAL_NETWORK_FEE';

/** The 501 of a capability production lacks: `message` says what and why, `configure` what sets it up. */
export function notConfigured(capability: ProductionCapability, message: string, configure: string, extra: Record<string, unknown> = {}): ApiError {
  return new ApiError('NOT_IMPLEMENTED', message, { capability, configure, ...extra });
}

/** A rail moves money out of the ledger to an external account (PAYOUT) or pulls it in from one (PULL). */
export type RailDirection = 'PAYOUT' | 'PULL';

/**
 * Whether this deployment has a production rail moving `currency` in `direction` (a connector routed for it in the
 * rails configuration, rails-config.ts). The one place that says so: quote creation and execution, transfers and
 * anything else that would send money outside the ledger in production ask here.
 */
export function hasProductionRail(currency: string, direction: RailDirection, paymentRail?: string | null): boolean {
  return productionRailFor(currency, direction, paymentRail) !== undefined;
}

/** The 501 of a production request that needs a rail this deployment does not have. */
export function noProductionRail(currency: string, direction: RailDirection): ApiError {
  const what = direction === 'PAYOUT' ? `pays out ${currency} to an external account` : `pulls ${currency} from an external account`;
  return notConfigured(
    direction === 'PAYOUT' ? 'PAYOUT_RAIL' : 'PULL_RAIL',
    `no production rail ${what} on this deployment: configure a rail connector routed for ${currency} (RAILS_CONFIG_FILE, docs/production.md#rails); internal accounts can be paid in production`,
    `a ${direction === 'PAYOUT' ? 'payout' : 'pull'} rail connector for ${currency} in RAILS_CONFIG_FILE`,
    { currency },
  );
}
