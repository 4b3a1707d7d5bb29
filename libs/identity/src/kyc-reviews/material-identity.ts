import type { BeneficialOwnerRole, DocumentSide, DocumentType } from '@payments/contracts';

/**
 * What a KYC/KYB decision is about: the identity the reviewers saw. A change to any of it is **material**: it makes
 * an approval of the older identity worthless (docs/kyc.md#what-a-decision-is-about).
 *
 * - The customer: every field of its profile except the ones below: names, birth date, nationality, address, the
 *   identification (idType, identifier, countryOfIssuance), the EDD answers, PEP status, region, and for a business
 *   the whole businessInfo (legal name, DBA, registration number, tax id, incorporation date and country, entity
 *   type...). Failing safe: a profile field added later is material until it is listed here.
 * - Each beneficial owner: its personal info (identifier included), roles and ownership percentage; owners added.
 * - Each document held by the customer or its owners: type, side, country, number, issuing authority, the file's
 *   digest; documents added or removed.
 *
 * Not material: how to reach the customer (email, phoneNumber), the end-user terms it accepted, and the platform's
 * own handles and settings kept outside the profile (platformCustomerId, umaAddress, currencies), nor any status.
 */
export const NON_MATERIAL_CUSTOMER_FIELDS: readonly string[] = ['email', 'phoneNumber', 'endUserTermsConsent', 'platformCustomerId', 'umaAddress', 'currencies'];

/** The material ones among the fields a customer change sets. */
export function materialCustomerFields(changedFields: readonly string[]): string[] {
  return changedFields.filter((field) => !NON_MATERIAL_CUSTOMER_FIELDS.includes(field));
}

/** The material part of a customer's profile (the stored profile, identifier included). */
export function materialCustomer(profile: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(profile).filter(([field]) => !NON_MATERIAL_CUSTOMER_FIELDS.includes(field)));
}

export interface MaterialOwner {
  id: string;
  roles: readonly BeneficialOwnerRole[];
  ownershipPercentage: number;
  /** As stored: with the full identifier, not the last four digits the API shows. */
  personalInfo: Readonly<Record<string, unknown>>;
}

export interface MaterialDocument {
  id: string;
  documentHolder: string;
  documentType: DocumentType;
  side?: DocumentSide | null;
  country: string;
  documentNumber?: string | null;
  issuingAuthority?: string | null;
  /** The file's SHA-256: a replaced file is another document to look at. */
  sha256: string;
}

/** The identity under review: the customer, its beneficial owners (a business's) and every document they hold. */
export interface ReviewedIdentity {
  customer: Record<string, unknown>;
  beneficialOwners: readonly MaterialOwner[];
  documents: readonly MaterialDocument[];
}

export const IDENTITY_PARTS = ['customer', 'beneficialOwners', 'documents'] as const;
export type IdentityPart = (typeof IDENTITY_PARTS)[number];

/** The digest of a reviewed identity, and of each of its parts (to tell reviewers which one changed). */
export interface IdentityDigest {
  digest: string;
  parts: Record<IdentityPart, string>;
}

/** The parts that differ between two digests, in IDENTITY_PARTS order. */
export function changedParts(before: IdentityDigest, after: IdentityDigest): IdentityPart[] {
  return IDENTITY_PARTS.filter((part) => before.parts[part] !== after.parts[part]);
}
