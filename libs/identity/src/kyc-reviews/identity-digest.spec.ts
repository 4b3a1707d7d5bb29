import { canonicalJson, identityDigest } from './identity-digest';
import { materialCustomer, materialCustomerFields, ReviewedIdentity } from './material-identity';

const address = { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' };
const ada: ReviewedIdentity = {
  customer: { fullName: 'Ada Lovelace', birthDate: '1815-12-10', nationality: 'GB', address, identifier: '123-45-6789' },
  beneficialOwners: [
    { id: 'BeneficialOwner:b', roles: ['UBO'], ownershipPercentage: 30, personalInfo: { firstName: 'B', lastName: 'Two', identifier: '111-11-1111' } },
    { id: 'BeneficialOwner:a', roles: ['CONTROL_PERSON'], ownershipPercentage: 40, personalInfo: { firstName: 'A', lastName: 'One', identifier: '222-22-2222' } },
  ],
  documents: [{ id: 'Document:1', documentHolder: 'Customer:c', documentType: 'PASSPORT', country: 'GB', sha256: 'ab'.repeat(32) }],
};

describe('the reviewed identity digest', () => {
  it('canonical JSON: keys in code-point order at every depth, undefined members left out, arrays in their order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: null, y: 'x' }], c: undefined } })).toBe('{"a":{"d":[2,{"y":"x","z":null}]},"b":1}');
    expect(canonicalJson({ Z: 1, a: 2, ä: 3 })).toBe('{"Z":1,"a":2,"ä":3}');
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(/finite/);
  });

  it('the same identity however assembled has one digest: key order and owner or document order do not matter', () => {
    const reordered: ReviewedIdentity = {
      documents: [...ada.documents],
      beneficialOwners: [...ada.beneficialOwners].reverse().map((o) => ({ personalInfo: { identifier: o.personalInfo.identifier, lastName: o.personalInfo.lastName, firstName: o.personalInfo.firstName }, ownershipPercentage: o.ownershipPercentage, roles: o.roles, id: o.id })),
      customer: { identifier: '123-45-6789', address: { country: 'US', postalCode: '62701', state: 'IL', city: 'Springfield', line1: '1 Main St' }, nationality: 'GB', birthDate: '1815-12-10', fullName: 'Ada Lovelace', nickname: undefined },
    };
    expect(identityDigest(reordered)).toEqual(identityDigest(ada));
    expect(identityDigest(ada).digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('each material difference is another digest, and the part it belongs to is the one that differs', () => {
    const base = identityDigest(ada);
    const changed = (identity: ReviewedIdentity) => {
      const d = identityDigest(identity);
      expect(d.digest).not.toBe(base.digest);
      return Object.entries(d.parts).flatMap(([part, digest]) => (digest === base.parts[part as keyof typeof base.parts] ? [] : [part]));
    };
    expect(changed({ ...ada, customer: { ...ada.customer, fullName: 'Mallory' } })).toEqual(['customer']);
    expect(changed({ ...ada, customer: { ...ada.customer, address: { ...address, line1: '2 Main St' } } })).toEqual(['customer']);
    expect(changed({ ...ada, customer: { ...ada.customer, identifier: '123-45-6780' } })).toEqual(['customer']); // same last four would still differ
    expect(changed({ ...ada, beneficialOwners: [{ ...ada.beneficialOwners[0], ownershipPercentage: 31 }, ada.beneficialOwners[1]] })).toEqual(['beneficialOwners']);
    expect(changed({ ...ada, beneficialOwners: ada.beneficialOwners.slice(1) })).toEqual(['beneficialOwners']);
    expect(changed({ ...ada, documents: [] })).toEqual(['documents']);
    expect(changed({ ...ada, documents: [{ ...ada.documents[0], sha256: 'cd'.repeat(32) }] })).toEqual(['documents']);
  });

  it('material fields: all of the profile but contact details, terms and the platform’s handles', () => {
    expect(materialCustomerFields(['email', 'phoneNumber', 'platformCustomerId', 'umaAddress', 'currencies', 'endUserTermsConsent'])).toEqual([]);
    expect(materialCustomerFields(['fullName', 'email', 'birthDate', 'nationality', 'address', 'identifier', 'businessInfo', 'pepStatus'])).toEqual([
      'fullName', 'birthDate', 'nationality', 'address', 'identifier', 'businessInfo', 'pepStatus',
    ]);
    expect(materialCustomer({ fullName: 'Ada', email: 'ada@example.com', phoneNumber: '+15555550100', address })).toEqual({ fullName: 'Ada', address });
    // An email change leaves the digest as it was.
    const withEmail = { ...ada, customer: materialCustomer({ ...ada.customer, email: 'new@example.com' }) };
    expect(identityDigest(withEmail)).toEqual(identityDigest(ada));
  });
});
