import { Controller, Inject } from '@nestjs/common';
import {
  ConfirmContactCodeBody,
  ContactCodeSent,
  CreateCustomerRequest,
  Customer,
  CustomerIdBody,
  CustomersRpc,
  EndUserTerms,
  ListCustomersQuery,
  Page,
  RpcRequest,
  SendContactCodeBody,
  SignedOutcome,
  SignedRequestChallenge,
  UpdateCustomerBody,
} from '@payments/contracts';
import { Handles } from '@payments/runtime';
import type { Identity } from '../identity';
import { IDENTITY } from '../identity.tokens';

const now = () => new Date().toISOString();

/** Thin RPC adapter for the customer endpoints. */
@Controller()
export class CustomerRpcController {
  constructor(@Inject(IDENTITY) private readonly identity: Identity) {}

  @Handles(CustomersRpc.create)
  create(r: RpcRequest<CreateCustomerRequest>): Promise<Customer> {
    return this.identity.customers.create(r.caller, r.body, now());
  }

  @Handles(CustomersRpc.list)
  list(r: RpcRequest<ListCustomersQuery>): Promise<Page<Customer>> {
    return this.identity.customers.list(r.caller, r.body);
  }

  @Handles(CustomersRpc.get)
  get(r: RpcRequest<CustomerIdBody>): Promise<Customer> {
    return this.identity.customers.get(r.caller, r.body.customerId);
  }

  @Handles(CustomersRpc.update)
  update(r: RpcRequest<UpdateCustomerBody>): Promise<SignedOutcome<Customer, SignedRequestChallenge>> {
    return this.identity.customers.update(r.caller, r.body.customerId, r.body.patch, now(), r.body.signature);
  }

  @Handles(CustomersRpc.delete)
  delete(r: RpcRequest<CustomerIdBody>): Promise<Customer> {
    return this.identity.customers.delete(r.caller, r.body.customerId, now());
  }

  @Handles(CustomersRpc.endUserTerms)
  endUserTerms(): EndUserTerms {
    return this.identity.customers.endUserTerms();
  }

  @Handles(CustomersRpc.sendContactCode)
  sendCode(r: RpcRequest<SendContactCodeBody>): Promise<ContactCodeSent> {
    return this.identity.customers.sendCode(r.caller, r.body.customerId, r.body.channel, now());
  }

  @Handles(CustomersRpc.confirmContactCode)
  confirmCode(r: RpcRequest<ConfirmContactCodeBody>): Promise<Customer> {
    return this.identity.customers.confirmCode(r.caller, r.body.customerId, r.body.channel, r.body.code, now());
  }
}
