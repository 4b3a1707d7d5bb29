import { createHash, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { Serializer } from '@nestjs/microservices';

/**
 * Authentication of the services' RPC over TCP. A packet carries the caller context (platform, mode, permissions)
 * in its payload, and a service believes it: so every TCP packet also carries `auth`, an HMAC-SHA256 over the pattern
 * (which names its service: `accounts.ping`), a timestamp and the digest of the payload, under a key derived from SECRET_HASH_KEY with a
 * label of its own. A pod that reaches a service's port without the key cannot name a platform or a mode; a packet
 * cannot be moved to another pattern (so another service) or payload; a captured one stops working after MAX_SKEW_MS.
 * In-process calls (the embedded mode) cross no network and carry nothing.
 */
export interface RpcPacketAuth {
  /** Milliseconds since the epoch when the client signed. */
  t: number;
  /** base64url HMAC-SHA256. */
  mac: string;
}

/** How far a packet's timestamp may be from the server's clock (either way: pods' clocks differ a little). */
export const RPC_AUTH_MAX_SKEW_MS = 60_000;

const LABEL = 'payments/rpc/caller-mac';

/** Why a packet was refused (logged by the server; the caller only learns it was refused). */
export type RpcAuthRefusal = 'no MAC' | 'malformed MAC' | 'stale timestamp' | 'bad MAC';

export interface RpcAuth {
  sign(pattern: string, data: unknown, now?: number): RpcPacketAuth;
  /** undefined when the packet is authentic; else why not. */
  check(packet: { pattern?: unknown; data?: unknown; auth?: unknown }, now?: number): RpcAuthRefusal | undefined;
}

/**
 * The MAC input is the payload as the wire carries it (JSON text): the server re-serialises what it parsed, which
 * gives the same text (JSON.stringify of parsed JSON is stable), so both sides digest the same bytes.
 */
function macOf(key: Buffer, pattern: string, t: number, data: unknown): string {
  const digest = createHash('sha256').update(JSON.stringify(data) ?? '').digest('base64url');
  return createHmac('sha256', key).update(`v1\n${pattern}\n${t}\n${digest}`).digest('base64url');
}

/** The RPC MAC key derived from SECRET_HASH_KEY, with its sign and check. */
export function rpcAuthOf(secretHashKey: Buffer): RpcAuth {
  const key = Buffer.from(hkdfSync('sha256', secretHashKey, Buffer.alloc(0), LABEL, 32));
  return {
    sign: (pattern, data, now = Date.now()) => ({ t: now, mac: macOf(key, pattern, now, data) }),
    check: (packet, now = Date.now()) => {
      const auth = packet.auth as Partial<RpcPacketAuth> | undefined;
      if (auth === undefined || auth === null) return 'no MAC';
      if (typeof auth !== 'object' || !Number.isSafeInteger(auth.t) || typeof auth.mac !== 'string' || typeof packet.pattern !== 'string') return 'malformed MAC';
      if (Math.abs(now - auth.t!) > RPC_AUTH_MAX_SKEW_MS) return 'stale timestamp';
      const expected = Buffer.from(macOf(key, packet.pattern, auth.t!, packet.data));
      const given = Buffer.from(auth.mac);
      return given.length === expected.length && timingSafeEqual(given, expected) ? undefined : 'bad MAC';
    },
  };
}

let processRpcAuth: RpcAuth | undefined;

/**
 * Installs this process's RPC key, once at boot, before any service listens or any client calls over TCP (every
 * entry point: runClusterService, the gateway, the launcher). One per process because every RPC client and server
 * of the process shares it, and clients are made deep inside the services.
 */
export function authenticateRpcWith(secretHashKey: Buffer): void {
  processRpcAuth = rpcAuthOf(secretHashKey);
}

/** The process's RPC key; a TCP server or client without one refuses to work (fails closed). */
export function processRpcAuthOrThrow(): RpcAuth {
  if (!processRpcAuth) throw new Error('RPC over TCP needs the RPC key: call authenticateRpcWith(SECRET_HASH_KEY) at boot');
  return processRpcAuth;
}

/** Client side of the TCP transport: signs each request packet with the process's RPC key. */
export class SigningPacketSerializer implements Serializer {
  constructor(private readonly inner: Serializer) {}

  serialize(packet: Record<string, unknown>): Record<string, unknown> {
    const auth = processRpcAuthOrThrow().sign(String(packet.pattern), packet.data);
    return { ...(this.inner.serialize(packet) as Record<string, unknown>), auth };
  }
}
