import { SoftwareAuthenticator } from '@payments/testing';
import type { TestPlatform } from './test-platform';

let n = 0;
/** A customer in an SCA region (DE): the SCA endpoints answer 409 for others. */
export async function createEuCustomer(t: TestPlatform, auth: string): Promise<string> {
  const body = { customerType: 'INDIVIDUAL', fullName: `Sca Holder ${n++}`, region: 'DE', email: 'sca@example.de', phoneNumber: '+4915112345678' };
  const res = await t.call('POST', '/customers', { auth, body });
  if (res.status !== 201) throw new Error(`customer not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

/** The body of POST .../sca/passkey, answering fresh registration options with a software authenticator. */
export async function passkeyRegistration(t: TestPlatform, auth: string, customerId: string, authenticator = new SoftwareAuthenticator()) {
  const res = await t.call('POST', `/customers/${customerId}/sca/passkey/registration-options`, { auth });
  if (res.status !== 200) throw new Error(`no registration options: ${res.status} ${JSON.stringify(res.body)}`);
  const origin = res.body.passkeyAllowedOrigins[0] as string;
  return { origin, registrationResponse: authenticator.register({ challenge: res.body.options.challenge, origin, rpId: res.body.options.rp.id }) };
}

/** Enrols a passkey for the customer (201 expected). */
export async function enrolPasskey(t: TestPlatform, auth: string, customerId: string, authenticator = new SoftwareAuthenticator()): Promise<SoftwareAuthenticator> {
  const res = await t.call('POST', `/customers/${customerId}/sca/passkey`, { auth, body: await passkeyRegistration(t, auth, customerId, authenticator) });
  if (res.status !== 201) throw new Error(`passkey not enrolled: ${res.status} ${JSON.stringify(res.body)}`);
  return authenticator;
}
