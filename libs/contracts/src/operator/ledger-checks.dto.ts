import { PageQuery } from '../pagination/pagination';

/** GET /operator/v1/ledger-checks: pagination only. */
export class ListLedgerChecksQuery extends PageQuery {}

/** One run of `npm run admin -- ledger:check`, as it recorded its outcome. */
export interface LedgerCheckRunView {
  /** Increases with every run. @asType integer */
  runId: number;
  /** @format date-time */
  finishedAt: string;
  /** @asType integer */
  accountsChecked: number;
  /** How many violations it found (0: the ledger held). @asType integer */
  violations: number;
  /** The rules violated, each once, sorted (e.g. FOLD_MISMATCH, OVERDRAWN); empty when none was. */
  rules: string[];
}
