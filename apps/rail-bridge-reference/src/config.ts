/** The reference bridge's settings, from the environment (README.md). */
export interface BridgeConfig {
  host: string;
  port: number;
  /** The `Authorization: Bearer` key the platform sends; also guards /_control. */
  apiKey: string;
  /** The `whsec_` secret callbacks are signed with. */
  callbackSecret: string;
  /** How long an accepted payment stays PENDING before it settles. */
  settleAfterMs: number;
}

export function bridgeConfigFrom(env: NodeJS.ProcessEnv): BridgeConfig {
  const problems: string[] = [];
  const port = Number(env.PORT ?? '8080');
  if (!Number.isInteger(port) || port < 0 || port > 65_535) problems.push('PORT must be a TCP port');
  const apiKey = env.BRIDGE_API_KEY ?? '';
  if (apiKey.length < 16) problems.push('BRIDGE_API_KEY must be set (at least 16 characters)');
  const callbackSecret = env.BRIDGE_CALLBACK_SECRET ?? '';
  if (!/^whsec_[A-Za-z0-9+/]{16,}={0,2}$/.test(callbackSecret)) problems.push('BRIDGE_CALLBACK_SECRET must be a whsec_ secret (whsec_ + base64 of at least 12 bytes)');
  const settleAfterMs = Number(env.BRIDGE_SETTLE_AFTER_MS ?? '2000');
  if (!Number.isInteger(settleAfterMs) || settleAfterMs < 0) problems.push('BRIDGE_SETTLE_AFTER_MS must be a non-negative integer');
  if (problems.length > 0) throw new Error(`rail-bridge-reference: ${problems.join('; ')}`);
  return { host: env.HOST ?? '127.0.0.1', port, apiKey, callbackSecret, settleAfterMs };
}
