/** RPC patterns of SCA passkey enrolment (quoting service). */
export const ScaPasskeysRpc = {
  registrationOptions: 'quoting.sca-passkeys.registration-options',
  enrol: 'quoting.sca-passkeys.enrol',
  get: 'quoting.sca-passkeys.get',
  remove: 'quoting.sca-passkeys.remove',
} as const;

/**
 * Identifies the customer of an SCA passkey call. `customerRegion` is the customer's region as identity knows it: the
 * gateway resolved the customer (404 for another tenant's) before calling, until quoting keeps its own customer view.
 */
export interface ScaCustomerRef {
  customerId: string;
  customerRegion: string | null;
}
