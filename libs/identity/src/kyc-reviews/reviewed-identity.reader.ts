import { EventStore, fold, queryRows, SqlExecutor } from '@payments/eventsourcing';
import type { DocumentSide, DocumentType } from '@payments/contracts';
import { beneficialOwnerDecider } from '../beneficial-owners/beneficial-owner.decider';
import { BeneficialOwnerEvent } from '../beneficial-owners/beneficial-owner.events';
import { customerDecider } from '../customers/customer.decider';
import { CustomerEvent } from '../customers/customer.events';
import { identityDigest } from './identity-digest';
import { IdentityDigest, materialCustomer, MaterialOwner, ReviewedIdentity } from './material-identity';

interface DocumentRow {
  document_id: string;
  document_holder: string;
  document_type: DocumentType;
  side: DocumentSide | null;
  country: string;
  document_number: string | null;
  issuing_authority: string | null;
  sha256: string;
}

/**
 * The identity of a customer under review as it is now, from the customer's and its owners' streams (the read
 * models keep only the last four digits of an identifier, which a change of the others would slip past) and the
 * documents they hold (a document's read model row has every field that matters, the file's digest included).
 */
export async function readReviewedIdentity(db: SqlExecutor, store: EventStore, customerId: string): Promise<ReviewedIdentity> {
  const ownerIds = (await queryRows<{ beneficial_owner_id: string }>(db, `SELECT beneficial_owner_id FROM beneficial_owners WHERE customer_id = $1`, [customerId])).map((r) => r.beneficial_owner_id);
  const streams = await store.readStreams(db, [customerId, ...ownerIds].map((streamId) => ({ streamId, fromVersion: 1 })));
  const customer = fold(customerDecider, (streams.get(customerId) ?? []) as unknown as CustomerEvent[]);
  const beneficialOwners: MaterialOwner[] = ownerIds.flatMap((id) => {
    const owner = fold(beneficialOwnerDecider, (streams.get(id) ?? []) as unknown as BeneficialOwnerEvent[]);
    return owner.status === 'ACTIVE' ? [{ id, roles: owner.roles, ownershipPercentage: owner.ownershipPercentage, personalInfo: { ...owner.personalInfo } }] : [];
  });
  const documents = await queryRows<DocumentRow>(
    db,
    `SELECT document_id, document_holder, document_type, side, country, document_number, issuing_authority, sha256
       FROM documents WHERE document_holder = ANY($1) AND deleted_at IS NULL`,
    [[customerId, ...ownerIds]],
  );
  return {
    customer: customer.status === 'NONE' ? {} : materialCustomer({ ...customer.profile }),
    beneficialOwners,
    documents: documents.map((d) => ({
      id: d.document_id,
      documentHolder: d.document_holder,
      documentType: d.document_type,
      side: d.side,
      country: d.country,
      documentNumber: d.document_number,
      issuingAuthority: d.issuing_authority,
      sha256: d.sha256,
    })),
  };
}

export async function currentIdentityDigest(db: SqlExecutor, store: EventStore, customerId: string): Promise<IdentityDigest> {
  return identityDigest(await readReviewedIdentity(db, store, customerId));
}
