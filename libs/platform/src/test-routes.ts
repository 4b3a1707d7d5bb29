import type { INestApplication } from '@nestjs/common';

export interface ServedRoute {
  method: string;
  /** Express template, e.g. `/2025-10-13/tokens/:tokenId`. */
  path: string;
}

/** Test fixture: every route the gateway's Express router serves (the source of truth for coverage checks). */
export function servedRoutes(app: INestApplication): ServedRoute[] {
  type Router = { stack: { route?: { path: string; methods: Record<string, boolean> } }[] };
  const express = app.getHttpAdapter().getInstance() as { router?: Router; _router?: Router }; // Express 5 names it `router`, 4 `_router`
  const routes: ServedRoute[] = [];
  for (const layer of (express.router ?? express._router)?.stack ?? []) {
    if (!layer.route) continue;
    for (const [method, on] of Object.entries(layer.route.methods)) if (on && method !== '_all') routes.push({ method: method.toUpperCase(), path: layer.route.path });
  }
  return routes;
}
