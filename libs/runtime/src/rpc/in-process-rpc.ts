import type { AddressInfo } from 'node:net';
import { ServerTCP, TcpContext, TcpOptions } from '@nestjs/microservices';
import { catchError, defer, map, mergeAll, Observable, throwError } from 'rxjs';
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

  constructor(
    private readonly service: string,
    options: Required<TcpOptions>['options'],
    /** Every answer's status and duration (the RPC server metrics), over TCP and in-process alike. */
    private readonly observe?: AnswerObserver,
  ) {
    super(options);
  }

  override listen(callback: (err?: unknown, ...optionalParams: unknown[]) => void): void {
    super.listen((err?: unknown, ...rest: unknown[]) => {
      if (!err) {
        this.listeningAs = keyOf(this.service, (this.server.address() as AddressInfo).port);
        servers.set(this.listeningAs, this);
      }
      callback(err, ...rest);
    });
  }

  /** A TCP request runs in the trace context its packet carries (rpc-tracing.ts). */
  override handleMessage(socket: Parameters<ServerTCP['handleMessage']>[0], rawMessage: unknown): Promise<unknown> {
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

  /** Runs the handler of `pattern` as a TCP request would; errors as the TCP client would see them. */
  dispatch<R>(pattern: string, payload: unknown): Observable<R> {
    return defer(async () => {
      // Patterns are plain strings here: the handler map is keyed by them (getHandlerByPattern would try JSON.parse).
      const handler = this.messageHandlers.get(pattern) ?? super.getHandlerByPattern(pattern);
      // The TCP client rejects with this same text when the remote service has no handler.
      if (!handler) throw 'There is no matching message handler defined in the remote service.';
      const traced = tracedHandler(this.service, pattern, 'inproc', handler, this.observe);
      return this.transformToObservable(await traced(wireCopy(payload), new TcpContext([null as never, pattern])));
    }).pipe(
      mergeAll(),
      map((answer) => wireCopy(answer) as R),
      catchError((error: unknown) => throwError(() => wireCopy(error))),
    );
  }
}

/** The server of `service` listening on `port` in this process, if there is one. */
export function inProcessServer(service: string, port: number): InProcessCapableTcpServer | undefined {
  return servers.get(keyOf(service, port));
}

/** What the TCP transport's JSON serialiser would deliver (undefined stays undefined, like a void answer). */
function wireCopy(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}
