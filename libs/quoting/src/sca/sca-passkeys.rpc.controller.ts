import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { EnrolScaPasskeyRequest, RpcRequest, ScaCustomerRef, ScaPasskey, ScaPasskeyRegistrationOptions, ScaPasskeysRpc } from '@payments/contracts';
import type { Quoting } from '../quoting';
import { QUOTING } from '../quoting.tokens';

const now = () => new Date().toISOString();

/** Thin RPC adapter of SCA passkey enrolment. */
@Controller()
export class ScaPasskeysRpcController {
  constructor(@Inject(QUOTING) private readonly quoting: Quoting) {}

  @MessagePattern(ScaPasskeysRpc.registrationOptions)
  registrationOptions(@Payload() r: RpcRequest<ScaCustomerRef>): Promise<ScaPasskeyRegistrationOptions> {
    return this.quoting.scaPasskeys.registrationOptions(r.caller, r.body, now());
  }

  @MessagePattern(ScaPasskeysRpc.enrol)
  enrol(@Payload() r: RpcRequest<ScaCustomerRef & EnrolScaPasskeyRequest>): Promise<ScaPasskey> {
    return this.quoting.scaPasskeys.enrol(r.caller, r.body, now());
  }

  @MessagePattern(ScaPasskeysRpc.get)
  get(@Payload() r: RpcRequest<ScaCustomerRef>): Promise<ScaPasskey> {
    return this.quoting.scaPasskeys.get(r.caller, r.body);
  }

  @MessagePattern(ScaPasskeysRpc.remove)
  async remove(@Payload() r: RpcRequest<ScaCustomerRef>): Promise<null> {
    await this.quoting.scaPasskeys.remove(r.caller, r.body, now());
    return null; // undefined would send no reply at all
  }
}
