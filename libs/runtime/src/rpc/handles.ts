import { MessagePattern, Payload } from '@nestjs/microservices';
import { ApiError, OperatorRole, refuseOutsideSandbox, requireOperator, RpcContract, RpcRequest } from '@payments/contracts';

type Handler<P, R> = (payload: P) => R | Promise<R>;

/**
 * Marks a service method as the handler of one RPC contract: it receives the contract's payload and must answer
 * its result, both checked by the compiler against the declaration the callers use.
 *
 * A sandbox-only contract (`sandboxRpc`) gets its mode checked here, in the service, before the method runs: a
 * production caller is refused with 404 even when it reached the service without the gateway (defence in depth,
 * and no handler can forget it). An operator contract (`operatorRpc`) gets its caller checked the same way: an
 * operator holding the role, nobody else.
 */
export function Handles<P, R>(contract: RpcContract<P, R>) {
  return <H extends Handler<P, R>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<H>): void => {
    if (contract.sandboxOnly) descriptor.value = sandboxOnly(descriptor.value!);
    descriptor.value = contract.operatorRole ? operatorOnly(descriptor.value!, contract.operatorRole) : notForOperators(descriptor.value!);
    MessagePattern(contract.pattern)(target, key, descriptor);
    Payload()(target, key, 0);
  };
}

/** The handler behind a check of the caller's mode (the wrapper keeps `this`, so the method is called as before). */
function sandboxOnly<H extends Handler<never, unknown>>(handler: H): H {
  return async function (this: unknown, payload: unknown) {
    refuseOutsideSandbox((payload as Partial<RpcRequest> | null)?.caller?.mode);
    return handler.call(this, payload as never);
  } as unknown as H;
}

/** The handler behind a check that the caller is an operator holding `role` (requireOperator). */
function operatorOnly<H extends Handler<never, unknown>>(handler: H, role: OperatorRole): H {
  return async function (this: unknown, payload: unknown) {
    requireOperator((payload as Partial<RpcRequest> | null)?.caller, role);
    return handler.call(this, payload as never);
  } as unknown as H;
}

/** A platform operation never runs for an operator's caller: operator credentials do not work on the platform API. */
function notForOperators<H extends Handler<never, unknown>>(handler: H): H {
  return async function (this: unknown, payload: unknown) {
    if ((payload as Partial<RpcRequest> | null)?.caller?.operator !== undefined) throw new ApiError('UNAUTHORIZED', 'operator credentials work only on the operator API (/operator/v1)');
    return handler.call(this, payload as never);
  } as unknown as H;
}
