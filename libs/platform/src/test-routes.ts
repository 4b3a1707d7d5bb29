import type { FastifyInstance } from 'fastify';
import { ServedRoute, servedRoutesOf } from '@payments/gateway';

export type { ServedRoute };

/** The gateway's pages that are not API routes: token links, rail bridges' callbacks and the reference's assets. */
const PAGES = /^\/(kyc|card-reveal|rails\/v1\/callbacks|docs\/assets)\//;

/**
 * Test fixture: every API route the gateway's router serves (the source of truth for coverage checks), each method
 * once: the HEAD the router adds beside every GET is left out, as are the token pages and the static assets.
 */
export function servedRoutes(server: FastifyInstance): ServedRoute[] {
  return servedRoutesOf(server).filter((route) => route.method !== 'HEAD' && !PAGES.test(route.path));
}
