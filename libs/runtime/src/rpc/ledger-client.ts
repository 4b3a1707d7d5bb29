import {
  CallerContext,
  CaptureHoldRequest,
  LedgerAccountBalance,
  LedgerEntryResult,
  LedgerReferenceBody,
  LedgerRpc,
  PlaceHoldRequest,
  ReleaseHoldRequest,
  ReverseEntryRequest,
  TransactionLedger,
  TransferRequest,
} from '@payments/contracts';
import type { ServiceClient } from './service-client';

/**
 * The ledger commands of the accounts service (LedgerRpc), as the services that move money call them (payments,
 * cards): one typed client over the accounts ServiceClient. Every command is idempotent by the id its caller derives;
 * `ofReference` is the one read (a transaction's postings and holds).
 */
export class LedgerClient {
  constructor(private readonly accounts: ServiceClient) {}

  placeHold(caller: CallerContext, body: PlaceHoldRequest): Promise<LedgerAccountBalance> {
    return this.accounts.call(LedgerRpc.placeHold, { caller, body });
  }

  captureHold(caller: CallerContext, body: CaptureHoldRequest): Promise<LedgerAccountBalance> {
    return this.accounts.call(LedgerRpc.captureHold, { caller, body });
  }

  releaseHold(caller: CallerContext, body: ReleaseHoldRequest): Promise<LedgerAccountBalance> {
    return this.accounts.call(LedgerRpc.releaseHold, { caller, body });
  }

  transfer(caller: CallerContext, body: TransferRequest): Promise<LedgerEntryResult> {
    return this.accounts.call(LedgerRpc.transfer, { caller, body });
  }

  reverse(caller: CallerContext, body: ReverseEntryRequest): Promise<LedgerEntryResult> {
    return this.accounts.call(LedgerRpc.reverse, { caller, body });
  }

  ofReference(caller: CallerContext, body: LedgerReferenceBody): Promise<TransactionLedger> {
    return this.accounts.call(LedgerRpc.ofReference, { caller, body });
  }
}
