import type { EntityManager } from 'typeorm';
import type { Projection } from '@payments/eventsourcing';
import { LinkEvent, LinkState, toProviderAccount } from './links/link.decider';
import { OperationEvent } from './operations/operation.events';
import { OperationState } from './operations/operation.state';
import { toStablecoinOperation } from './operations/operation.view';
import { StablecoinEvent, StablecoinState, toStablecoin } from './registry/stablecoin.decider';

/** Newest first by creation time; the id breaks ties. */
const sortKeyOf = (createdAt: string, id: string) => `${createdAt}/${id}`;

export const projectLink: Projection<EntityManager, LinkState, LinkEvent> = async (tx, _events, s) => {
  if (s.status === 'NONE') return;
  await tx.query(
    `INSERT INTO stablecoin_provider_accounts (link_id, platform_id, mode, provider, status, sort_key, body) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (link_id) DO UPDATE SET status = $5, body = $7`,
    [s.linkId, s.platformId, s.mode, s.provider, s.linkStatus, sortKeyOf(s.createdAt, s.linkId), JSON.stringify(toProviderAccount(s))],
  );
};

export const projectStablecoin: Projection<EntityManager, StablecoinState, StablecoinEvent> = async (tx, _events, s) => {
  if (s.status === 'NONE') return;
  const t = s.terms;
  await tx.query(
    `INSERT INTO stablecoins (stablecoin_id, platform_id, mode, provider, issuance_status, grid_operations_status, sort_key, body) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (stablecoin_id) DO UPDATE SET issuance_status = $5, grid_operations_status = $6, body = $8`,
    [t.id, t.platformId, t.mode, t.provider, t.issuanceStatus, t.gridOperationsStatus, sortKeyOf(t.createdAt, t.id), JSON.stringify(toStablecoin(t))],
  );
};

export const projectOperation: Projection<EntityManager, OperationState, OperationEvent> = async (tx, _events, s) => {
  if (s.status === 'NONE') return;
  await tx.query(
    `INSERT INTO stablecoin_operations (operation_id, stablecoin_id, platform_id, mode, operation_type, status, body) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (operation_id) DO UPDATE SET status = $6, body = $7`,
    [s.operationId, s.stablecoinId, s.platformId, s.mode, s.operationType, s.status, JSON.stringify(toStablecoinOperation(s))],
  );
};
