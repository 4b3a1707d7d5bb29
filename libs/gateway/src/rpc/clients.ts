/** Nest DI tokens of the per-service RPC clients (one ServiceClient each). */
export const ACCOUNTS_CLIENT = Symbol('AccountsClient');
export const QUOTING_CLIENT = Symbol('QuotingClient');
export const PAYMENTS_CLIENT = Symbol('PaymentsClient');
