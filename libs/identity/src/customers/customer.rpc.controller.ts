import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ConfirmContactRequest,
  CreateCustomerRequest,
  Customer,
  CustomersRpc,
  EndUserTerms,
  ListCustomersQuery,
  Page,
  RpcRequest,
  UpdateCustomerRequest,
} from '@payments/contracts';
import type { Identity } from '../identity';
import { IDENTITY } from '../identity.tokens';
import { ContactChannel } from './customer.events';

type ById<T = unknown> = RpcRequest<{ customerId: string } & T>;
const now = () => new Date().toISOString();

/** Thin RPC adapter for the customer endpoints. */
@Controller()
export class CustomerRpcController {
  constructor(@Inject(IDENTITY) private readonly identity: Identity) {}

  @MessagePattern(CustomersRpc.create)
  create(@Payload() r: RpcRequest<CreateCustomerRequest>): Promise<Customer> {
    return this.identity.customers.create(r.caller, r.body, now());
  }

  @MessagePattern(CustomersRpc.list)
  list(@Payload() r: RpcRequest<ListCustomersQuery>): Promise<Page<Customer>> {
    return this.identity.customers.list(r.caller, r.body);
  }

  @MessagePattern(CustomersRpc.get)
  get(@Payload() r: ById): Promise<Customer> {
    return this.identity.customers.get(r.caller, r.body.customerId);
  }

  @MessagePattern(CustomersRpc.update)
  update(@Payload() r: ById<{ patch: UpdateCustomerRequest }>): Promise<Customer> {
    return this.identity.customers.update(r.caller, r.body.customerId, r.body.patch, now());
  }

  @MessagePattern(CustomersRpc.delete)
  delete(@Payload() r: ById): Promise<Customer> {
    return this.identity.customers.delete(r.caller, r.body.customerId, now());
  }

  @MessagePattern(CustomersRpc.endUserTerms)
  endUserTerms(): EndUserTerms {
    return this.identity.customers.endUserTerms();
  }

  @MessagePattern(CustomersRpc.sendContactCode)
  sendCode(@Payload() r: ById<{ channel: ContactChannel }>) {
    return this.identity.customers.sendCode(r.caller, r.body.customerId, r.body.channel, now());
  }

  @MessagePattern(CustomersRpc.confirmContactCode)
  confirmCode(@Payload() r: ById<{ channel: ContactChannel } & ConfirmContactRequest>): Promise<Customer> {
    return this.identity.customers.confirmCode(r.caller, r.body.customerId, r.body.channel, r.body.code, now());
  }
}
