import type { EnrolScaPasskeyRequest, ScaPasskey, ScaPasskeyRegistrationOptions } from '../sca';
import { rpc } from './rpc-contract';

/** RPC contracts of SCA passkey enrolment (quoting service). */
export const ScaPasskeysRpc = {
  registrationOptions: rpc<ScaCustomerBody, ScaPasskeyRegistrationOptions>('quoting.sca-passkeys.registration-options'),
  enrol: rpc<EnrolScaPasskeyBody, ScaPasskey>('quoting.sca-passkeys.enrol'),
  get: rpc<ScaCustomerBody, ScaPasskey>('quoting.sca-passkeys.get'),
  /** Answers null: undefined would send no reply at all. */
  remove: rpc<ScaCustomerBody, null>('quoting.sca-passkeys.remove'),
} as const;

/** The customer of an SCA passkey call; quoting resolves it from its customer directory (404 for another tenant's). */
export interface ScaCustomerBody {
  customerId: string;
}

/** ScaPasskeysRpc.enrol. */
export interface EnrolScaPasskeyBody extends ScaCustomerBody, EnrolScaPasskeyRequest {}
