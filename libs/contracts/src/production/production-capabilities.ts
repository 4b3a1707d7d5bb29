import { ApiError } from '../errors/api-error';

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

/** `<direction>:<currency>` of every production rail of this deployment: none yet. */
const PRODUCTION_RAILS: ReadonlySet<string> = new Set<string>();

/**
 * Whether this deployment has a production rail moving `currency` in `direction`: none yet. The one place that says
 * so: quote creation and execution, transfers and anything else that would send money outside the ledger in
 * production ask here, and the rail-connector port (the next issue) answers here from the connectors it configures.
 */
export function hasProductionRail(currency: string, direction: RailDirection): boolean {
  return PRODUCTION_RAILS.has(`${direction}:${currency}`);
}

/** The 501 of a production request that needs a rail this deployment does not have. */
export function noProductionRail(currency: string, direction: RailDirection): ApiError {
  const what = direction === 'PAYOUT' ? `pays out ${currency} to an external account` : `pulls ${currency} from an external account`;
  return notConfigured(
    direction === 'PAYOUT' ? 'PAYOUT_RAIL' : 'PULL_RAIL',
    `no production rail ${what} on this deployment: a rail connector for ${currency} must be configured (none is available in this release); internal accounts can be paid in production`,
    `a ${direction === 'PAYOUT' ? 'payout' : 'pull'} rail connector for ${currency}`,
    { currency },
  );
}
