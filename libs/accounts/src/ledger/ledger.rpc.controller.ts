import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { LedgerAccountBalance, LedgerEntryResult, LedgerRpc, RpcRequest } from '@payments/contracts';
import type { Accounts } from '../accounts';
import { ACCOUNTS } from '../accounts.tokens';

const now = () => new Date().toISOString();

/** Ledger commands for other services (no public HTTP); bodies are validated by LedgerCommands. */
@Controller()
export class LedgerRpcController {
  constructor(@Inject(ACCOUNTS) private readonly accounts: Accounts) {}

  @MessagePattern(LedgerRpc.placeHold)
  placeHold(@Payload() r: RpcRequest): Promise<LedgerAccountBalance> {
    return this.accounts.ledgerCommands.placeHold(r.caller, r.body, now());
  }

  @MessagePattern(LedgerRpc.captureHold)
  captureHold(@Payload() r: RpcRequest): Promise<LedgerAccountBalance> {
    return this.accounts.ledgerCommands.captureHold(r.caller, r.body, now());
  }

  @MessagePattern(LedgerRpc.releaseHold)
  releaseHold(@Payload() r: RpcRequest): Promise<LedgerAccountBalance> {
    return this.accounts.ledgerCommands.releaseHold(r.caller, r.body, now());
  }

  @MessagePattern(LedgerRpc.credit)
  credit(@Payload() r: RpcRequest): Promise<LedgerAccountBalance> {
    return this.accounts.ledgerCommands.credit(r.caller, r.body, now());
  }

  @MessagePattern(LedgerRpc.reverse)
  reverse(@Payload() r: RpcRequest): Promise<LedgerEntryResult> {
    return this.accounts.ledgerCommands.reverse(r.caller, r.body, now());
  }

  @MessagePattern(LedgerRpc.transfer)
  transfer(@Payload() r: RpcRequest): Promise<LedgerEntryResult> {
    return this.accounts.ledgerCommands.transfer(r.caller, r.body, now());
  }
}
