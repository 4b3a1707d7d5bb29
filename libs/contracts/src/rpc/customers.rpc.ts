import type { ConfirmContactRequest, CreateCustomerRequest, Customer, EndUserTerms, ListCustomersQuery, UpdateCustomerRequest } from '../customers';
import type { SignedOutcome, SignedRequestChallenge, WalletSignatureHeaders } from '../wallet-auth';
import type { Page } from '../pagination';
import type { EmptyBody } from './rpc';
import { rpc } from './rpc-contract';

/** RPC contracts of the customer endpoints (identity service). */
export const CustomersRpc = {
  create: rpc<CreateCustomerRequest, Customer>('identity.customers.create'),
  list: rpc<ListCustomersQuery, Page<Customer>>('identity.customers.list'),
  get: rpc<CustomerIdBody, Customer>('identity.customers.get'),
  update: rpc<UpdateCustomerBody, SignedOutcome<Customer, SignedRequestChallenge>>('identity.customers.update'),
  delete: rpc<CustomerIdBody, Customer>('identity.customers.delete'),
  endUserTerms: rpc<EmptyBody, EndUserTerms>('identity.customers.end-user-terms'),
  sendContactCode: rpc<SendContactCodeBody, ContactCodeSent>('identity.customers.contact.send'),
  confirmContactCode: rpc<ConfirmContactCodeBody, Customer>('identity.customers.contact.confirm'),
} as const;

export interface CustomerIdBody {
  customerId: string;
}

/** CustomersRpc.update: PATCH /customers/{customerId}. */
export interface UpdateCustomerBody extends CustomerIdBody {
  patch: UpdateCustomerRequest;
  /** A change of a contact tied to Embedded Wallet credentials is a signed retry. */
  signature: WalletSignatureHeaders;
}

/** The contact channel a verification code goes to: POST /customers/{id}/verify-email or /verify-phone. */
export type ContactChannel = 'email' | 'phone';

/** CustomersRpc.sendContactCode. */
export interface SendContactCodeBody extends CustomerIdBody {
  channel: ContactChannel;
}

/** CustomersRpc.sendContactCode: the code is on its way and expires at `expiresAt`. */
export interface ContactCodeSent {
  channel: ContactChannel;
  status: 'PENDING';
  expiresAt: string;
}

/** CustomersRpc.confirmContactCode. */
export interface ConfirmContactCodeBody extends SendContactCodeBody, ConfirmContactRequest {}
