import { join } from 'node:path';

/**
 * Test fixtures: the production rail connectors the e2e specs configure (RAILS_CONFIG), each writing into and reading
 * from directories under the spec's own temporary root. One place for the bank identifiers the specs share.
 */
export const ODFI = '02100002';
export const DEBTOR_IBAN = 'DE89370400440532013000';

/** A NACHA connector `ach` for USD on ACH (payouts and pulls), its outbox and inbox under `root/<name>-out|in`. */
export function achConnector(root: string, extra: Record<string, unknown> = {}, name = 'ach') {
  return {
    id: 'ach',
    kind: 'NACHA',
    routes: [{ currency: 'USD', paymentRail: 'ACH', directions: ['PAYOUT', 'PULL'] }],
    outboxDirectory: join(root, `${name}-out`),
    inboxDirectory: join(root, `${name}-in`),
    batchIntervalSeconds: 1,
    nacha: { immediateDestination: '091000019', immediateDestinationName: 'SPONSOR BANK', immediateOrigin: '021000021', immediateOriginName: 'PAYMENTS PLATFORM', companyName: 'PAYMENTS PLAT', companyIdentification: '1234567890', originatingDfi: ODFI },
    ...extra,
  };
}

/** An ISO 20022 connector `sepa` for EUR on SEPA (payouts), debiting `debtorIban`, under `root/<name>-out|in`. */
export function sepaConnector(root: string, debtorIban = DEBTOR_IBAN, name = 'sepa') {
  return {
    id: 'sepa',
    kind: 'ISO20022',
    routes: [{ currency: 'EUR', paymentRail: 'SEPA', directions: ['PAYOUT'] }],
    outboxDirectory: join(root, `${name}-out`),
    inboxDirectory: join(root, `${name}-in`),
    batchIntervalSeconds: 1,
    iso20022: { initiatingPartyName: 'Payments Platform', debtorName: 'Payments Platform Ltd', debtorIban, debtorAgentBic: 'COBADEFFXXX' },
  };
}

/** The HTTP connector `wires` for USD wires (payouts) to a bridge at `baseUrl`, its secrets in the named variables. */
export function wiresConnector(baseUrl: string, apiKeyEnv: string, callbackSecretEnv: string, pollAfterSeconds = 30) {
  return {
    id: 'wires',
    kind: 'HTTP',
    routes: [{ currency: 'USD', paymentRail: 'WIRE', directions: ['PAYOUT'] }],
    http: { baseUrl, apiKeyEnv, callbackSecretEnv, timeoutMs: 1500, pollAfterSeconds },
  };
}
