import type { EntityManager } from 'typeorm';
import type { Projection } from '@payments/eventsourcing';
import { TokenState } from './token.decider';
import { TokenEvent } from './token.events';

/** The api_tokens read model: the credential check and the /tokens endpoints read it. */
export const projectToken: Projection<EntityManager, TokenState, TokenEvent> = async (tx, events) => {
  for (const event of events) {
    switch (event.type) {
      case 'TokenCreated.v1': {
        const d = event.data;
        await tx.query(
          `INSERT INTO api_tokens (token_id, client_id, platform_id, mode, name, permissions, secret_hash, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
          [d.tokenId, d.clientId, d.platformId, d.mode, d.name, d.permissions, d.secretHash, d.createdAt],
        );
        break;
      }
      case 'TokenDeleted.v1':
        await tx.query(`UPDATE api_tokens SET deleted_at = $2, updated_at = $2 WHERE token_id = $1`, [event.data.tokenId, event.data.deletedAt]);
        break;
    }
  }
};
