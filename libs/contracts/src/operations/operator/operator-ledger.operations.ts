import { ListLedgerChecksQuery } from '../../operator/ledger-checks.dto';
import { LedgerCheckRpc } from '../../operator/ledger-checks.rpc';
import { operation } from '../http-operation';

/** The ledger's invariant checks (accounts service). */
export const OPERATOR_LEDGER_OPERATIONS = [
  operation({
    operationId: 'listLedgerChecks',
    method: 'GET',
    path: '/ledger-checks',
    tag: 'Ledger',
    summary: 'Runs of the ledger check, newest first',
    description:
      'Each run of `npm run admin -- ledger:check` (balanced entries and currencies, balances against postings and events, overdrafts, card ' +
      'transactions against their postings): when it finished, how many accounts it checked, how many violations it found and which rules they broke. ' +
      'The check itself runs on the operator\'s schedule, not from this API.',
    permission: 'VIEW',
    auth: 'operator',
    operatorRole: 'VIEWER',
    service: 'accounts',
    rpc: LedgerCheckRpc.list,
    query: ListLedgerChecksQuery,
    status: 200,
    response: { page: 'LedgerCheckRunView' },
    request: ({ query }) => query,
  }),
];
