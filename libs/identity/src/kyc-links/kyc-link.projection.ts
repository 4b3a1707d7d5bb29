import type { EntityManager } from 'typeorm';
import { assertNever, Projection } from '@payments/eventsourcing';
import { KycLinkState } from './kyc-link.decider';
import { KycLinkEvent } from './kyc-link.events';

/** `kyc_links`: the token hash → link lookup the hosted page needs. */
export const projectKycLink: Projection<EntityManager, KycLinkState, KycLinkEvent> = async (tx, events) => {
  for (const event of events) {
    switch (event.type) {
      case 'KycLinkIssued.v1': {
        const d = event.data;
        await tx.query(
          `INSERT INTO kyc_links (link_id, secret_hash, customer_id, platform_id, mode, expires_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [d.linkId, d.secretHash, d.customerId, d.platformId, d.mode, d.expiresAt, d.issuedAt],
        );
        break;
      }
      case 'KycLinkOpened.v1':
        await tx.query(`UPDATE kyc_links SET opened_at = $2 WHERE link_id = $1`, [event.data.linkId, event.data.openedAt]);
        break;
      default:
        assertNever(event);
    }
  }
};
