import { ClientProxy, ClientProxyFactory, Transport } from '@nestjs/microservices';
import { firstValueFrom, timeout, TimeoutError } from 'rxjs';
import { ApiError, isErrorEnvelope, OUTAGE_RETRY_AFTER_SECONDS, RpcContract } from '@payments/contracts';
import { inProcessServer } from './in-process-rpc';
import { SigningPacketSerializer } from './rpc-auth';
import { inRpcClientSpan, TracingPacketSerializer } from './rpc-tracing';

export interface ServiceEndpoint {
  name: string;
  host: string;
  port: number;
}

/** One finished call, for metrics: `error` = the service answered with an error envelope. */
export interface RpcSample {
  service: string;
  pattern: string;
  outcome: 'ok' | 'error' | 'timeout' | 'unavailable';
  seconds: number;
}

/**
 * RPC to one service over @nestjs/microservices TCP with a deadline — or straight to its handlers when the service
 * listens in this process (in-process-rpc.ts). A service's error envelope comes back as the same ApiError; an
 * unreachable or slow service is 503 SERVICE_UNAVAILABLE, never a hang.
 */
export class ServiceClient {
  private readonly proxy: ClientProxy;

  constructor(
    readonly endpoint: ServiceEndpoint,
    private readonly timeoutMs: number,
    private readonly observe: (sample: RpcSample) => void = () => undefined,
  ) {
    this.proxy = ClientProxyFactory.create({ transport: Transport.TCP, options: { host: endpoint.host, port: endpoint.port, serializer: new SigningPacketSerializer(new TracingPacketSerializer()) } });
  }

  /** `payload` is checked against the contract's declared payload, the answer typed as its declared result. */
  async call<Payload, Result>(contract: RpcContract<Payload, Result>, payload: NoInfer<Payload>): Promise<Result> {
    const { pattern } = contract;
    const started = performance.now();
    const done = (outcome: RpcSample['outcome']) =>
      this.observe({ service: this.endpoint.name, pattern, outcome, seconds: (performance.now() - started) / 1000 });
    try {
      const local = inProcessServer(this.endpoint.name, this.endpoint.port);
      const result = await inRpcClientSpan(this.endpoint.name, pattern, local ? 'inproc' : 'tcp', () =>
        local ? withinDeadline(local.call<Result>(pattern, payload), this.timeoutMs) : firstValueFrom(this.proxy.send<Result>(pattern, payload).pipe(timeout(this.timeoutMs))),
      );
      done('ok');
      return result;
    } catch (error) {
      if (isErrorEnvelope(error)) {
        done('error');
        throw ApiError.fromEnvelope(error);
      }
      done(error instanceof TimeoutError ? 'timeout' : 'unavailable');
      const reason = error instanceof TimeoutError ? `did not answer within ${this.timeoutMs} ms` : 'is unavailable';
      throw new ApiError('SERVICE_UNAVAILABLE', `the ${this.endpoint.name} service ${reason}`, { retryAfterSeconds: OUTAGE_RETRY_AFTER_SECONDS });
    }
  }

  close(): Promise<void> {
    return Promise.resolve(this.proxy.close());
  }
}

/** The answer, or TimeoutError (as rxjs' `timeout` gives the TCP path) once `ms` passed without one. */
function withinDeadline<T>(answer: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError()), ms);
  });
  return Promise.race([answer, deadline]).finally(() => clearTimeout(timer));
}
