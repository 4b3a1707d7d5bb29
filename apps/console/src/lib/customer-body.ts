import type { FormValues } from '../components/action-form';

/** The customer body from the form: only what was filled, nested as the API takes it. */
export function customerBody(v: FormValues): Record<string, unknown> {
  const pick = (...names: string[]) => Object.fromEntries(names.filter((n) => v[n] !== undefined && v[n] !== '').map((n) => [n, v[n]]));
  const address = pick('line1', 'line2', 'city', 'state', 'postalCode', 'country');
  const body: Record<string, unknown> = { customerType: v.customerType, ...pick('platformCustomerId', 'email', 'umaAddress') };
  if (v.customerType === 'BUSINESS') {
    const info = pick('legalName', 'registrationNumber', 'taxId', 'incorporatedOn');
    body.businessInfo = { ...info, ...(v.country ? { country: v.country } : {}) };
  } else Object.assign(body, pick('fullName', 'birthDate', 'nationality'));
  if (Object.keys(address).length > 0) body.address = address;
  return body;
}
