import type { EntityManager } from 'typeorm';
import type { Projection } from '@payments/eventsourcing';
import { DocumentState } from './document.decider';
import { DocumentEvent } from './document.events';

/** The documents read model: GET/list read it, and the verification checks which documents a holder has. */
export const projectDocument: Projection<EntityManager, DocumentState, DocumentEvent> = async (tx, events) => {
  for (const event of events) {
    switch (event.type) {
      case 'DocumentUploaded.v1': {
        const d = event.data;
        await tx.query(
          `INSERT INTO documents (document_id, platform_id, mode, document_holder, document_type, side, country, document_number,
             issuing_authority, file_name, content_type, size_bytes, sha256, file_key, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15)`,
          [d.documentId, d.platformId, d.mode, d.documentHolder, d.documentType, d.side ?? null, d.country, d.documentNumber ?? null,
            d.issuingAuthority ?? null, d.fileName, d.contentType, d.sizeBytes, d.sha256, d.fileKey, d.uploadedAt],
        );
        break;
      }
      case 'DocumentReplaced.v1': {
        const d = event.data;
        await tx.query(
          `UPDATE documents SET document_type = $2, side = $3, country = $4, document_number = $5, issuing_authority = $6,
             file_name = $7, content_type = $8, size_bytes = $9, sha256 = $10, file_key = $11, updated_at = $12
           WHERE document_id = $1`,
          [d.documentId, d.documentType, d.side ?? null, d.country, d.documentNumber ?? null, d.issuingAuthority ?? null,
            d.fileName, d.contentType, d.sizeBytes, d.sha256, d.fileKey, d.replacedAt],
        );
        break;
      }
      case 'DocumentSubmitted.v1':
        await tx.query(`UPDATE documents SET submitted_at = $2 WHERE document_id = $1`, [event.data.documentId, event.data.submittedAt]);
        break;
      case 'DocumentDeleted.v1':
        await tx.query(`UPDATE documents SET deleted_at = $2, updated_at = $2 WHERE document_id = $1`, [event.data.documentId, event.data.deletedAt]);
        break;
    }
  }
};
