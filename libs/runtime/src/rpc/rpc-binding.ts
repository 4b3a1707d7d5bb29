import type { RuntimeConfig } from '../config';

/** What a service's RPC server is given: where it binds, and whether it binds at all. */
export interface RpcBinding {
  host: string;
  port: number;
  listen: boolean;
}

/**
 * Where a service's RPC server listens. `<APP>_RPC_PORT` is the port its callers dial; a process binds it too unless
 * RPC_BIND_PORT says otherwise, so replicas sharing one host (behind a balancer that callers dial) each bind their own.
 * Embedded (every service in one process): nothing binds, and in-process clients find the server under the port they
 * dial, so RPC_BIND_PORT, a per-process setting, does not apply there.
 */
export function rpcBinding(config: Pick<RuntimeConfig, 'rpcHost' | 'rpcBindPort'>, dialPort: number, embedded = false): RpcBinding {
  if (embedded) return { host: config.rpcHost, port: dialPort, listen: false };
  return { host: config.rpcHost, port: config.rpcBindPort ?? dialPort, listen: true };
}
