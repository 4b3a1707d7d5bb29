import { Controller, Inject } from '@nestjs/common';
import {
  CaptureHoldRequest,
  CreditRequest,
  LedgerAccountBalance,
  LedgerEntryResult,
  LedgerReferenceBody,
  LedgerRpc,
  PlaceHoldRequest,
  ReleaseHoldRequest,
  ReverseEntryRequest,
  RpcRequest,
  TransactionLedger,
  TransferRequest,
} from '@payments/contracts';
import { Handles } from '@payments/runtime';
import type { Accounts } from '../accounts';
import { ACCOUNTS } from '../accounts.tokens';
import { ledgerOfReference } from './reference-ledger';

const now = () => new Date().toISOString();

/** Ledger commands and the one ledger read for other services (no public HTTP); bodies are validated in ledger-requests.ts. */
@Controller()
export class LedgerRpcController {
  constructor(@Inject(ACCOUNTS) private readonly accounts: Accounts) {}

  @Handles(LedgerRpc.placeHold)
  placeHold(r: RpcRequest<PlaceHoldRequest>): Promise<LedgerAccountBalance> {
    return this.accounts.ledgerCommands.placeHold(r.caller, r.body, now());
  }

  @Handles(LedgerRpc.captureHold)
  captureHold(r: RpcRequest<CaptureHoldRequest>): Promise<LedgerAccountBalance> {
    return this.accounts.ledgerCommands.captureHold(r.caller, r.body, now());
  }

  @Handles(LedgerRpc.releaseHold)
  releaseHold(r: RpcRequest<ReleaseHoldRequest>): Promise<LedgerAccountBalance> {
    return this.accounts.ledgerCommands.releaseHold(r.caller, r.body, now());
  }

  @Handles(LedgerRpc.credit)
  credit(r: RpcRequest<CreditRequest>): Promise<LedgerAccountBalance> {
    return this.accounts.ledgerCommands.credit(r.caller, r.body, now());
  }

  @Handles(LedgerRpc.reverse)
  reverse(r: RpcRequest<ReverseEntryRequest>): Promise<LedgerEntryResult> {
    return this.accounts.ledgerCommands.reverse(r.caller, r.body, now());
  }

  @Handles(LedgerRpc.transfer)
  transfer(r: RpcRequest<TransferRequest>): Promise<LedgerEntryResult> {
    return this.accounts.ledgerCommands.transfer(r.caller, r.body, now());
  }

  @Handles(LedgerRpc.ofReference)
  ofReference(r: RpcRequest<LedgerReferenceBody>): Promise<TransactionLedger> {
    return ledgerOfReference(this.accounts.host.dataSource, r.caller, r.body);
  }
}
