import type { EntityManager } from 'typeorm';
import type { Projection } from '@payments/eventsourcing';
import { PlatformState } from './platform.decider';
import { PlatformEvent } from './platform.events';

export const projectPlatform: Projection<EntityManager, PlatformState, PlatformEvent> = async (tx, events) => {
  for (const event of events) {
    await tx.query(`INSERT INTO platforms (platform_id, name, created_at) VALUES ($1, $2, $3)`, [
      event.data.platformId,
      event.data.name,
      event.data.createdAt,
    ]);
  }
};
