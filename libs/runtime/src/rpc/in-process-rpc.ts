import type { AddressInfo } from 'node:net';
import { ServerTCP, TcpContext, TcpOptions } from '@nestjs/microservices';
import { firstValueFrom, isObservable } from 'rxjs';
import { processRpcAuthOrThrow, RpcAuth } from './rpc-auth';
import { AnswerObserver, inPacketContext, tracedHandler } from './rpc-tracing';

/**
 * RPC servers listening in this process, by service name and port. The name matters: in a cluster every service
 * may listen on the same port in its own pod, and a client of another service must not be answered by this one.
 */
const servers = new Map<string, InProcessCapableTcpServer>();
const keyOf = (service: string, port: number) => `${service}:${port}`;

/**
 * The TCP RPC server of a service, also reachable without the network from a client in the same process (the
 * embedded mode runs every service in one process; the cluster mode keeps TCP between processes). A local call runs
 * the same Nest handler chain — pipes, the error-envelope filter — and copies payload and answer through JSON, as
 * the wire would, so no caller or handler can tell the transports apart or share mutable objects (ADR 0004).
 */
export class InProcessCapableTcpServer extends ServerTCP {
  private listeningAs?: string;
  private auth?: RpcAuth;
  private readonly configuredPort: number;

  constructor(
    private readonly service: string,
    options: Required<TcpOptions>['options'],
    /** Every answer's status and duration (the RPC server metrics), over TCP and in-process alike. */
    private readonly observe?: AnswerObserver,
    private readonly security: {
      /** Checks every TCP packet's MAC (rpc-auth.ts); default: the process's RPC key, required to listen. */
      auth?: RpcAuth;
      /** Where refused packets are told. */
      log?: (message: string) => void;
      /**
       * false: in-process only (the embedded mode), nothing binds; clients in this process find the server under
       * its configured port, as they would over TCP.
       */
      listen?: boolean;
    } = {},
  ) {
    super(options);
    this.configuredPort = options.port ?? 0;
  }

  override listen(callback: (err?: unknown, ...optionalParams: unknown[]) => void): void {
    if (this.security.listen === false) {
      this.listeningAs = keyOf(this.service, this.configuredPort);
      servers.set(this.listeningAs, this);
      return callback();
    }
    try {
      this.auth = this.security.auth ?? processRpcAuthOrThrow(); // no key, no TCP: fail closed at startup
    } catch (error) {
      return callback(error);
    }
    super.listen((err?: unknown, ...rest: unknown[]) => {
      if (!err) {
        this.listeningAs = keyOf(this.service, (this.server.address() as AddressInfo).port);
        servers.set(this.listeningAs, this);
      }
      callback(err, ...rest);
    });
  }

  /**
   * A TCP packet is handled only when its MAC proves the caller holds the RPC key (rpc-auth.ts): before any pattern
   * lookup, handler, pipe or event handler sees it. It then runs in the trace context it carries (rpc-tracing.ts).
   */
  override handleMessage(socket: Parameters<ServerTCP['handleMessage']>[0], rawMessage: unknown): Promise<unknown> {
    const packet = (rawMessage ?? {}) as { id?: unknown; pattern?: unknown; data?: unknown; auth?: unknown };
    const refusal = this.auth ? this.auth.check(packet) : 'no MAC';
    if (refusal) {
      const pattern = typeof packet.pattern === 'string' ? packet.pattern.slice(0, 100) : typeof packet.pattern;
      this.security.log?.(`${this.service}: refused an RPC (${pattern}) from ${socket.netSocket.remoteAddress ?? 'unknown'}: ${refusal}`);
      // The caller learns only that it was refused; the same envelope a misconfigured gateway turns into a 503.
      if (packet.id !== undefined) socket.sendMessage({ id: packet.id, err: RPC_REFUSED, isDisposed: true });
      return Promise.resolve();
    }
    return inPacketContext(rawMessage, () => super.handleMessage(socket, rawMessage));
  }

  /** Every handler runs in an RPC SERVER span and has its answer observed, over TCP and in-process alike. */
  override getHandlerByPattern(pattern: string): ReturnType<ServerTCP['getHandlerByPattern']> {
    const handler = super.getHandlerByPattern(pattern);
    return handler && Object.assign(tracedHandler(this.service, pattern, 'tcp', handler, this.observe), { isEventHandler: handler.isEventHandler, extras: handler.extras });
  }

  override close(): void {
    if (this.listeningAs !== undefined && servers.get(this.listeningAs) === this) servers.delete(this.listeningAs);
    this.listeningAs = undefined;
    super.close();
  }

  /**
   * Runs the handler of `pattern` as a TCP request would: the payload and the answer (or error) copied as the TCP
   * transport's JSON would deliver them, an observable answer's first value taken as the TCP client takes it. A plain
   * promise, without the observables the TCP path needs: every in-process call (all of them in the embedded mode)
   * goes through here.
   */
  async call<R>(pattern: string, payload: unknown): Promise<R> {
    // Patterns are plain strings here: the handler map is keyed by them (getHandlerByPattern would try JSON.parse).
    const handler = this.messageHandlers.get(pattern) ?? super.getHandlerByPattern(pattern);
    // The TCP client rejects with this same text when the remote service has no handler.
    if (!handler) throw 'There is no matching message handler defined in the remote service.';
    const traced = tracedHandler(this.service, pattern, 'inproc', handler, this.observe);
    let answer: unknown;
    try {
      const result: unknown = await traced(wireCopy(payload), new TcpContext([null as never, pattern]));
      answer = isObservable(result) ? await firstValueFrom(result) : result;
    } catch (error) {
      throw wireCopy(error);
    }
    return wireCopy(answer) as R;
  }
}

const RPC_REFUSED = { status: 503, code: 'SERVICE_UNAVAILABLE', message: 'the RPC caller could not be authenticated' };

/** The server of `service` listening on `port` in this process, if there is one. */
export function inProcessServer(service: string, port: number): InProcessCapableTcpServer | undefined {
  return servers.get(keyOf(service, port));
}

/** What the TCP transport's JSON serialiser would deliver (undefined stays undefined, like a void answer). */
function wireCopy(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}
