import type { Page } from '../pagination';
import { operatorRpc } from '../rpc/rpc-contract';
import type { LedgerCheckRunView, ListLedgerChecksQuery } from './ledger-checks.dto';

/** The ledger check history (accounts service: ledger_check_runs, written by `npm run admin -- ledger:check`). */
export const LedgerCheckRpc = {
  list: operatorRpc<ListLedgerChecksQuery, Page<LedgerCheckRunView>>('accounts.operator.ledger-checks.list', 'VIEWER'),
} as const;
