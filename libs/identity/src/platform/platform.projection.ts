import type { EntityManager } from 'typeorm';
import type { Projection } from '@payments/eventsourcing';
import { PlatformState } from './platform.decider';
import { PlatformEvent } from './platform.events';

/** Platforms and their credentials (the table the credential check reads). */
export const projectPlatform: Projection<EntityManager, PlatformState, PlatformEvent> = async (tx, events) => {
  for (const event of events) {
    switch (event.type) {
      case 'PlatformCreated.v1':
        await tx.query(`INSERT INTO platforms (platform_id, name, created_at) VALUES ($1, $2, $3)`, [
          event.data.platformId,
          event.data.name,
          event.data.createdAt,
        ]);
        break;
      case 'CredentialIssued.v1': {
        const d = event.data;
        await tx.query(
          `INSERT INTO credentials (client_id, platform_id, mode, name, permissions, secret_hash, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [d.clientId, event.streamId, d.mode, d.name, d.permissions, d.secretHash, d.issuedAt],
        );
        break;
      }
    }
  }
};
