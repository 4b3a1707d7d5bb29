import { MessagePattern, Payload } from '@nestjs/microservices';
import { refuseOutsideSandbox, RpcContract, RpcRequest } from '@payments/contracts';

type Handler<P, R> = (payload: P) => R | Promise<R>;

/**
 * Marks a service method as the handler of one RPC contract: it receives the contract's payload and must answer
 * its result, both checked by the compiler against the declaration the callers use.
 *
 * A sandbox-only contract (`sandboxRpc`) gets its mode checked here, in the service, before the method runs: a
 * production caller is refused with 404 even when it reached the service without the gateway (defence in depth,
 * and no handler can forget it).
 */
export function Handles<P, R>(contract: RpcContract<P, R>) {
  return <H extends Handler<P, R>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<H>): void => {
    if (contract.sandboxOnly) descriptor.value = sandboxOnly(descriptor.value!);
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
