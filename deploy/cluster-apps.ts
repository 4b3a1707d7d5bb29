import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Entries under apps/ that are not cluster-mode apps: the one-process launcher (its admin CLI ships), bench, chaos,
 * the rail connector's reference bridge (a conformance-testing aid that stands in for a bank, never part of the
 * platform), and the console (static files the gateway serves, no process of its own).
 */
const NOT_CLUSTER_APPS = ['launcher', 'bench', 'chaos', 'rail-bridge-reference', 'console'];

/** The cluster-mode apps, one process (container, Deployment) each: every other directory under apps/. */
export const CLUSTER_APPS: readonly string[] = readdirSync(join(__dirname, '../apps'))
  .filter((a) => !NOT_CLUSTER_APPS.includes(a))
  .sort();

/** `wallet-auth` → `walletAuth`: the app's prefix in RuntimeConfig (walletAuthRpcHost, walletAuthOpsPort, …). */
export function configKeyOf(app: string): string {
  return app.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** `wallet-auth` → `WALLET_AUTH`: the app's prefix in the environment (WALLET_AUTH_RPC_HOST, …). */
export function envPrefixOf(app: string): string {
  return app.toUpperCase().replace(/-/g, '_');
}
