import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcContract } from '@payments/contracts';

type Handler<P, R> = (payload: P) => R | Promise<R>;

/**
 * Marks a service method as the handler of one RPC contract: it receives the contract's payload and must answer
 * its result, both checked by the compiler against the declaration the callers use.
 */
export function Handles<P, R>(contract: RpcContract<P, R>) {
  return <H extends Handler<P, R>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<H>): void => {
    MessagePattern(contract.pattern)(target, key, descriptor);
    Payload()(target, key, 0);
  };
}
