import { Controller, Inject } from '@nestjs/common';
import { EnrolScaPasskeyBody, RpcRequest, ScaCustomerBody, ScaPasskey, ScaPasskeyRegistrationOptions, ScaPasskeysRpc } from '@payments/contracts';
import { Handles } from '@payments/runtime';
import type { Quoting } from '../quoting';
import { QUOTING } from '../quoting.tokens';
import type { ScaCustomerRef } from './sca-passkey.service';

const now = () => new Date().toISOString();

/** Thin RPC adapter of SCA passkey enrolment. */
@Controller()
export class ScaPasskeysRpcController {
  constructor(@Inject(QUOTING) private readonly quoting: Quoting) {}

  @Handles(ScaPasskeysRpc.registrationOptions)
  async registrationOptions(r: RpcRequest<ScaCustomerBody>): Promise<ScaPasskeyRegistrationOptions> {
    return this.quoting.scaPasskeys.registrationOptions(r.caller, await this.customer(r), now());
  }

  @Handles(ScaPasskeysRpc.enrol)
  async enrol(r: RpcRequest<EnrolScaPasskeyBody>): Promise<ScaPasskey> {
    return this.quoting.scaPasskeys.enrol(r.caller, { ...r.body, ...(await this.customer(r)) }, now());
  }

  @Handles(ScaPasskeysRpc.get)
  async get(r: RpcRequest<ScaCustomerBody>): Promise<ScaPasskey> {
    return this.quoting.scaPasskeys.get(r.caller, await this.customer(r));
  }

  @Handles(ScaPasskeysRpc.remove)
  async remove(r: RpcRequest<ScaCustomerBody>): Promise<null> {
    await this.quoting.scaPasskeys.remove(r.caller, await this.customer(r), now());
    return null; // undefined would send no reply at all
  }

  /** 404 unless the customer is the caller's (platform and mode); one created a moment ago is waited for briefly. */
  private async customer(r: RpcRequest<ScaCustomerBody>): Promise<ScaCustomerRef> {
    const known = await this.quoting.customers.get(r.caller, r.body.customerId);
    return { customerId: known.customerId, customerRegion: known.region };
  }
}
