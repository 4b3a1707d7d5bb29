import type { DocumentType, VerificationError } from '@payments/contracts';
import { isBlank } from './kyc.rules';
import { CustomerSnapshot, DocumentRef, OwnerSnapshot, VerificationInputs } from './verification-inputs';

/** Seed Limits: owners of 25 % or more are collected. */
export const BENEFICIAL_OWNER_THRESHOLD_PERCENT = 25;

/** The business documents KYB requires, each with the types that satisfy it. */
export const KYB_DOCUMENTS: readonly { type: VerificationError['type']; accepted: readonly DocumentType[]; reason: string }[] = [
  { type: 'MISSING_LEGAL_PRESENCE_DOCUMENT', accepted: ['CERTIFICATE_OF_INCORPORATION', 'ARTICLES_OF_INCORPORATION'], reason: 'a formation document is required' },
  { type: 'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT', accepted: ['SHAREHOLDER_REGISTER'], reason: 'a document of the ownership and control structure is required' },
  { type: 'MISSING_PROOF_OF_ADDRESS_DOCUMENT', accepted: ['PROOF_OF_ADDRESS', 'UTILITY_BILL', 'BANK_STATEMENT'], reason: 'a proof of the business address (dated within 3 months) is required' },
];

/**
 * What a business's KYB still lacks, each with the resource to fix (docs/kyb.md has the table):
 * the principal address and an identification number; at least one CONTROL_PERSON; at least one owner of 25 % or
 * more; for every owner that must be collected (25 % or more, or a control person) a usable identification; and
 * the three business documents.
 */
export function kybErrors({ customer, owners, documents }: VerificationInputs): VerificationError[] {
  const resourceId = customer.customerId;
  const errors: VerificationError[] = [...businessFieldErrors(customer)];
  if (!owners.some((o) => o.roles.includes('CONTROL_PERSON'))) {
    errors.push({ resourceId, type: 'MISSING_CONTROL_PERSON', reason: 'add a beneficial owner with the CONTROL_PERSON role' });
  }
  if (!owners.some((o) => o.ownershipPercentage >= BENEFICIAL_OWNER_THRESHOLD_PERCENT)) {
    errors.push({ resourceId, type: 'MISSING_BENEFICIAL_OWNER', reason: `add every owner of ${BENEFICIAL_OWNER_THRESHOLD_PERCENT} % or more; none is registered` });
  }
  for (const owner of owners.filter(mustBeCollected)) errors.push(...ownerErrors(owner));
  errors.push(...documentErrors(resourceId, documents[resourceId] ?? []));
  return errors;
}

function businessFieldErrors(customer: CustomerSnapshot): VerificationError[] {
  const resourceId = customer.customerId;
  const errors: VerificationError[] = [];
  if (isBlank(customer.businessInfo?.legalName)) errors.push({ resourceId, type: 'MISSING_FIELD', field: 'businessInfo.legalName', reason: 'the legal name is required' });
  if (isBlank(customer.address)) errors.push({ resourceId, type: 'MISSING_FIELD', field: 'address', reason: 'the principal address is required' });
  if (isBlank(customer.businessInfo?.taxId) && isBlank(customer.businessInfo?.registrationNumber)) {
    errors.push({ resourceId, type: 'MISSING_FIELD', field: 'businessInfo.taxId', reason: 'an identification number (taxId or registrationNumber) is required' });
  }
  return errors;
}

const mustBeCollected = (owner: OwnerSnapshot) => owner.ownershipPercentage >= BENEFICIAL_OWNER_THRESHOLD_PERCENT || owner.roles.includes('CONTROL_PERSON');

/** Seed: SSN or ITIN for U.S. persons; for others e.g. a passport with its issuing country. */
function ownerErrors(owner: OwnerSnapshot): VerificationError[] {
  const resourceId = owner.beneficialOwnerId;
  if (owner.nationality === 'US' && owner.idType !== 'SSN' && owner.idType !== 'ITIN') {
    return [{ resourceId, type: 'INVALID_FIELD', field: 'personalInfo.idType', reason: 'U.S. persons are identified by SSN or ITIN' }];
  }
  if (owner.idType === 'PASSPORT' && isBlank(owner.countryOfIssuance)) {
    return [{ resourceId, type: 'MISSING_FIELD', field: 'personalInfo.countryOfIssuance', reason: 'a passport needs its issuing country' }];
  }
  return [];
}

function documentErrors(resourceId: string, held: DocumentRef[]): VerificationError[] {
  return KYB_DOCUMENTS.filter((required) => !held.some((d) => required.accepted.includes(d.documentType as DocumentType))).map((required) => ({
    resourceId,
    type: required.type,
    acceptedDocumentTypes: [...required.accepted],
    reason: required.reason,
  }));
}
