import type { RailsConfig } from '@payments/contracts';
import { abaRoutingNumberValid } from '../external-accounts/rules/checksums/bank-check-digits';
import { ibanProblem } from '../external-accounts/rules/checksums/iban';

/**
 * The check digits of the configured deposit accounts, with the rules external accounts are checked by (the rails
 * configuration's parser checks shapes only: contracts has no account rules). A wrong digit would send every
 * customer's money to an account that is not the deployment's: the service does not start, naming the field.
 */
export function assertDepositAccountsValid(config: RailsConfig): void {
  (config.depositAccounts ?? []).forEach((d, i) => {
    const where = `rails configuration: depositAccounts[${i}]`;
    if (d.routingNumber && !abaRoutingNumberValid(d.routingNumber)) throw new Error(`${where}: routingNumber "${d.routingNumber}" fails the ABA check digit`);
    const problem = d.iban ? ibanProblem(d.iban) : undefined;
    if (problem) throw new Error(`${where}: iban "${d.iban}" ${problem}`);
  });
}
