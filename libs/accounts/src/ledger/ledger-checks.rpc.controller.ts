import { Controller, Inject } from '@nestjs/common';
import { LedgerCheckRpc, LedgerCheckRunView, ListLedgerChecksQuery, Page, RpcRequest } from '@payments/contracts';
import { Handles } from '@payments/runtime';
import type { Accounts } from '../accounts';
import { ACCOUNTS } from '../accounts.tokens';
import { listLedgerCheckRuns } from './ledger-check-runs';

/** Thin RPC adapter of the ledger check history (operator API); `@Handles` has checked the operator's role. */
@Controller()
export class LedgerChecksRpcController {
  constructor(@Inject(ACCOUNTS) private readonly accounts: Accounts) {}

  @Handles(LedgerCheckRpc.list)
  list(r: RpcRequest<ListLedgerChecksQuery>): Promise<Page<LedgerCheckRunView>> {
    return listLedgerCheckRuns(this.accounts.host.dataSource, r.body);
  }
}
