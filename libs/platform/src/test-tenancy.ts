import { OPERATIONS } from '@payments/contracts';
import { eventually, http, HttpResult } from '@payments/testing';
import type { PlatformApi, TestPlatform, TestTenant } from './test-platform';

/**
 * Test fixtures of the tenancy sweeps (tenancy*.e2e.spec.ts): who must not see the owner's sandbox resources, what
 * "as for an id that does not exist" answers, and the served document the sweeps derive their tables from.
 */

/** Everyone who must not reach the owner's sandbox resources with Basic credentials: another platform (both modes) and the owner's other mode. */
export function foreignCallers(owner: TestTenant, stranger: TestTenant): [who: string, auth: string][] {
  return [
    ['another platform (sandbox)', stranger.sandbox],
    ['another platform (production)', stranger.production],
    ['the owner in production', owner.production],
  ];
}

/** A 404 with a not-found code of the published enum (NOT_FOUND, USER_NOT_FOUND, REFERENCE_NOT_FOUND, …). */
export function isNotFound(res: Pick<HttpResult, 'status' | 'body'>): boolean {
  return res.status === 404 && res.body?.status === 404 && /NOT_FOUND$/.test(res.body?.code ?? '');
}

/** A 400 INVALID_INPUT whose details name `field` (a body field path, e.g. `lookupId`). */
export function namesField(res: Pick<HttpResult, 'status' | 'body'>, field: string): boolean {
  return res.status === 400 && (res.body?.details?.errors ?? []).some((e: { field?: string }) => e.field === field);
}

/** The public OpenAPI document as the gateway serves it (the sweeps' source of truth besides the router). */
export async function servedDocument(t: PlatformApi): Promise<any> {
  return (await http('GET', `${new URL(t.url).origin}/openapi.json`)).body;
}

/**
 * Operations no other platform's Basic credentials can be tried on: Agent Operations take only an agent's bearer token
 * (the token scopes them to its agent and customer: tenancy-agents.e2e.spec.ts), and a device code redemption takes
 * no credentials at all (the code is the proof). As declared: `METHOD /path/{param}`.
 */
export const NOT_PLATFORM_CREDENTIAL_OPERATIONS = new Set(OPERATIONS.filter((op) => op.auth === 'agent' || op.auth === 'none').map((op) => `${op.method} ${op.path}`));

/** The platform id of a tenant (the bootstrap tenant's is read from its token). */
export async function platformIdOf(t: TestPlatform, tenant: TestTenant): Promise<string> {
  if (tenant.platformId) return tenant.platformId;
  const [row] = await t.platform.identity.host.dataSource.query(`SELECT platform_id FROM identity.api_tokens WHERE client_id = $1`, [t.bootstrap.SANDBOX.clientId]);
  return row.platform_id;
}

/** Events of the platform in every service's event store (each service schema has an `events` table). */
export async function eventsOfPlatform(t: TestPlatform, platformId: string): Promise<number> {
  const db = t.platform.identity.host.dataSource;
  const schemas: { schema: string }[] = await db.query(`SELECT table_schema AS schema FROM information_schema.tables WHERE table_name = 'events' ORDER BY 1`);
  const counts = schemas.map(({ schema }) => `(SELECT count(*) FROM "${schema}".events WHERE platform_id = $1)`);
  return Number((await db.query(`SELECT ${counts.join(' + ')} AS n`, [platformId]))[0].n);
}

/**
 * The platform's event count once its consumers are done with what came before (the same count twice, 300 ms apart):
 * a count to compare with after a request that must record nothing.
 */
export async function settledEventsOfPlatform(t: TestPlatform, platformId: string): Promise<number> {
  let last = await eventsOfPlatform(t, platformId);
  return eventually(async () => {
    await new Promise((r) => setTimeout(r, 300));
    const now = await eventsOfPlatform(t, platformId);
    const settled = now === last;
    last = now;
    return settled ? now : undefined;
  }, { what: `the events of ${platformId} to settle`, timeoutMs: 20_000 });
}
