import { AddressInfo, connect, createServer, Server, Socket } from 'node:net';

export interface Backend {
  host: string;
  port: number;
}

/**
 * A round-robin TCP balancer in this process, standing in for a Kubernetes Service in front of an app's replicas:
 * each new connection goes to the next backend that is up (a backend marked down, as an endpoint whose pod died or is
 * not ready, is skipped; one that refuses the connection is skipped for this connection too), and bytes are piped both
 * ways. A backend's connections end with it: when the replica dies (or is marked down) its clients' connections are
 * dropped, so they reconnect, through here, to a live replica.
 */
export class TcpBalancer {
  private next = 0;
  private readonly down = new Set<number>();
  private readonly open = new Map<number, Set<Socket>>();
  /** Connections handed to each backend so far (tests check the round robin). */
  readonly connections: number[];

  private readonly server: Server;
  private listening = 0;

  private constructor(readonly backends: readonly Backend[]) {
    this.connections = backends.map(() => 0);
    this.server = createServer({ pauseOnConnect: true }, (client) => this.accept(client));
  }

  /** Listens on 127.0.0.1:`port` (0: a free one). */
  static async start(backends: readonly Backend[], port = 0): Promise<TcpBalancer> {
    if (backends.length === 0) throw new Error('a balancer needs at least one backend');
    const balancer = new TcpBalancer(backends);
    await new Promise<void>((resolve, reject) => {
      balancer.server.once('error', reject);
      balancer.server.listen(port, '127.0.0.1', () => resolve());
    });
    balancer.listening = (balancer.server.address() as AddressInfo).port;
    return balancer;
  }

  /** Where clients connect (the Service's port). */
  get port(): number {
    return this.listening;
  }

  /** Not routed to any more, and every connection it has now is dropped (its pod died, or stopped being ready). */
  markDown(index: number): void {
    this.down.add(index);
    for (const socket of this.open.get(index) ?? []) socket.destroy();
  }

  /** Routed to again (its replica is ready). */
  markUp(index: number): void {
    this.down.delete(index);
  }

  isUp(index: number): boolean {
    return !this.down.has(index);
  }

  async close(): Promise<void> {
    for (const sockets of this.open.values()) for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Tries the backends that are up, in turn from the next one; the client waits (paused) until one accepts. */
  private accept(client: Socket): void {
    client.on('error', () => client.destroy());
    const candidates = this.backends.map((_, i) => (this.next + i) % this.backends.length).filter((i) => !this.down.has(i));
    this.next = (this.next + 1) % this.backends.length;
    const attempt = (k: number) => {
      if (k >= candidates.length || client.destroyed) {
        client.destroy(); // no replica up: as a Service without ready endpoints, the connection is refused
        return;
      }
      const index = candidates[k];
      const upstream = connect({ host: this.backends[index].host, port: this.backends[index].port });
      const refused = () => {
        upstream.destroy();
        attempt(k + 1);
      };
      upstream.once('error', refused);
      upstream.once('connect', () => {
        upstream.off('error', refused);
        if (this.down.has(index) || client.destroyed) {
          upstream.destroy();
          client.destroy();
          return;
        }
        this.pipe(index, client, upstream);
      });
    };
    attempt(0);
  }

  private pipe(index: number, client: Socket, upstream: Socket): void {
    this.connections[index]++;
    const sockets = this.open.get(index) ?? new Set<Socket>();
    this.open.set(index, sockets);
    sockets.add(client);
    // Either side's end or failure ends both: a client never keeps a half-dead connection to a dead replica.
    const drop = () => {
      sockets.delete(client);
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) {
      socket.once('close', drop);
      socket.on('error', drop);
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.resume();
  }
}
