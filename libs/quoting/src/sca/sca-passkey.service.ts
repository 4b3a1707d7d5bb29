import type { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { generateRegistrationOptions, verifyRegistrationResponse } from '@simplewebauthn/server';
import type { AuthenticatorTransportFuture, RegistrationResponseJSON } from '@simplewebauthn/server';
import { decodeClientDataJSON, isoBase64URL } from '@simplewebauthn/server/helpers';
import { ApiError, CallerContext, EnrolScaPasskeyRequest, invalidInput, isCustomerId, isScaRegion, Mode, ScaPasskey, ScaPasskeyRegistrationOptions } from '@payments/contracts';
import { CommandExecutor, queryRows } from '@payments/eventsourcing';
import { ScaPasskeyCommand, scaPasskeyDecider } from './sca-passkey.decider';
import { ScaPasskeyConfig } from './sca-passkey.config';
import { projectScaPasskey } from './sca-passkey.projection';
import { SCA_PASSKEY_COLUMNS, ScaPasskeyRow, toScaPasskey } from './sca-passkey.view';

export interface ScaPasskeyServiceOptions {
  /** How long a registration challenge can be answered (the usual WebAuthn ceremony timeout: 5 minutes). */
  registrationTtlMs: number;
  /** Unanswered registration challenges kept per customer (several tabs); older ones are dropped. */
  openRegistrationsMax: number;
}

/** The customer of an enrolment, resolved from quoting's customer directory (tenancy checked there). */
export interface ScaCustomerRef {
  customerId: string;
  customerRegion: string | null;
}

type Scope = Pick<CallerContext, 'platformId' | 'mode'> & Partial<Pick<CallerContext, 'correlationId' | 'clientId'>>;
/** COSE algorithms accepted at enrolment: ES256, EdDSA, RS256 (what platform authenticators and security keys use). */
const ALGORITHMS = [-7, -8, -257];

export const scaPasskeyStreamId = (customerId: string) => `ScaPasskey:${customerId}`;
const notFound = () => new ApiError('NOT_FOUND', 'no SCA passkey is enrolled for this customer');

/** Enrolment of the one SCA passkey a customer may hold: options, verified registration, read, removal. */
export class ScaPasskeyService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly executor: CommandExecutor<EntityManager>,
    readonly config: ScaPasskeyConfig,
    private readonly options: ScaPasskeyServiceOptions,
  ) {}

  async registrationOptions(caller: Scope, ref: ScaCustomerRef, now: string): Promise<ScaPasskeyRegistrationOptions> {
    this.assertScaCustomer(ref);
    if (await this.find(caller, ref.customerId)) throw alreadyEnrolled();
    const expiresAt = new Date(Date.parse(now) + this.options.registrationTtlMs).toISOString();
    const options = await generateRegistrationOptions({
      rpName: this.config.rpName,
      rpID: this.config.rpId,
      // The customer id, not a name: authenticators show it, and it must not carry personal data.
      userName: ref.customerId,
      userID: new TextEncoder().encode(ref.customerId),
      attestationType: 'none',
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
      supportedAlgorithmIDs: ALGORITHMS,
      timeout: this.options.registrationTtlMs,
    });
    await this.dataSource.transaction(async (tx) => {
      await tx.query(`DELETE FROM sca_passkey_registrations WHERE expires_at <= $1`, [now]);
      await tx.query(
        `DELETE FROM sca_passkey_registrations WHERE customer_id = $1 AND challenge IN (
           SELECT challenge FROM sca_passkey_registrations WHERE customer_id = $1 ORDER BY created_at DESC OFFSET $2)`,
        [ref.customerId, this.options.openRegistrationsMax - 1],
      );
      await tx.query(`INSERT INTO sca_passkey_registrations (challenge, platform_id, mode, customer_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
        options.challenge, caller.platformId, caller.mode, ref.customerId, now, expiresAt,
      ]);
    });
    return { options: options as unknown as Record<string, unknown>, passkeyAllowedOrigins: this.config.origins, expiresAt };
  }

  async enrol(caller: Scope, ref: ScaCustomerRef & EnrolScaPasskeyRequest, now: string): Promise<ScaPasskey> {
    this.assertScaCustomer(ref);
    if (!this.config.origins.includes(ref.origin)) throw invalidInput('origin', `origin must be one of ${this.config.origins.join(', ')}`);
    if (await this.find(caller, ref.customerId)) throw alreadyEnrolled();
    const response = ref.registrationResponse as unknown as RegistrationResponseJSON;
    // Single use: the challenge is consumed before the checks, so a failed attempt cannot be retried with it.
    if (!(await this.consumeChallenge(caller, ref.customerId, challengeOf(response), now))) {
      throw invalidInput('registrationResponse', 'the registration answers no open challenge of this customer (unknown, used or expired): request new options');
    }
    let verified;
    try {
      verified = await verifyRegistrationResponse({
        response,
        expectedChallenge: challengeOf(response)!,
        expectedOrigin: ref.origin,
        expectedRPID: this.config.rpId,
        requireUserVerification: true,
        supportedAlgorithmIDs: ALGORITHMS,
      });
    } catch (error) {
      throw invalidInput('registrationResponse', `the registration does not verify: ${error instanceof Error ? error.message : 'malformed'}`);
    }
    if (!verified.verified) throw invalidInput('registrationResponse', 'the registration does not verify');
    const { credential, aaguid, credentialDeviceType, credentialBackedUp } = verified.registrationInfo;
    const taken = await queryRows(this.dataSource, `SELECT 1 FROM sca_passkeys WHERE platform_id = $1 AND mode = $2 AND credential_id = $3`, [caller.platformId, caller.mode, credential.id]);
    if (taken.length > 0) throw new ApiError('PASSKEY_CREDENTIAL_ALREADY_EXISTS', 'this credential is already enrolled for another customer');
    await this.run(caller, ref.customerId, {
      type: 'EnrolScaPasskey',
      passkeyId: `ScaPasskey:${uuidv7()}`,
      customerId: ref.customerId,
      platformId: caller.platformId,
      mode: caller.mode,
      credentialId: credential.id,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports ?? transportsOf(response),
      aaguid,
      deviceType: credentialDeviceType,
      backedUp: credentialBackedUp,
      origin: ref.origin,
      now,
    });
    return this.get(caller, ref);
  }

  async get(caller: Scope, ref: Pick<ScaCustomerRef, 'customerId'>): Promise<ScaPasskey> {
    const row = await this.find(caller, ref.customerId);
    if (!row) throw notFound();
    return toScaPasskey(row);
  }

  async remove(caller: Scope, ref: Pick<ScaCustomerRef, 'customerId'>, now: string): Promise<void> {
    if (!(await this.find(caller, ref.customerId))) throw notFound();
    await this.run(caller, ref.customerId, { type: 'RemoveScaPasskey', platformId: caller.platformId, mode: caller.mode, now });
  }

  /** The enrolled credential of a customer of the caller's platform and mode (tenancy is in the query). */
  async find(scope: { platformId: string; mode: Mode | string }, customerId: string): Promise<ScaPasskeyRow | undefined> {
    if (!isCustomerId(customerId)) return undefined;
    const rows = await queryRows<ScaPasskeyRow>(this.dataSource, `SELECT ${SCA_PASSKEY_COLUMNS} FROM sca_passkeys WHERE customer_id = $1 AND platform_id = $2 AND mode = $3`, [
      customerId, scope.platformId, scope.mode,
    ]);
    return rows[0];
  }

  run(scope: Scope, customerId: string, command: ScaPasskeyCommand) {
    return this.executor.execute({
      decider: scaPasskeyDecider,
      streamId: scaPasskeyStreamId(customerId),
      platformId: scope.platformId,
      metadata: { correlationId: scope.correlationId, actor: scope.clientId },
      command,
      project: projectScaPasskey,
    });
  }

  private assertScaCustomer(ref: ScaCustomerRef): void {
    if (!isCustomerId(ref.customerId)) throw new ApiError('NOT_FOUND', 'customer not found');
    if (!isScaRegion(ref.customerRegion)) throw new ApiError('SCA_NOT_REQUIRED', 'Strong Customer Authentication does not apply to this customer (region outside the EU/EEA)');
  }

  private async consumeChallenge(caller: Scope, customerId: string, challenge: string | undefined, now: string): Promise<boolean> {
    if (!challenge) return false;
    const rows = await queryRows(
      this.dataSource,
      // A CTE: TypeORM answers a bare DELETE ... RETURNING with [rows, count], a SELECT with the rows.
      `WITH consumed AS (
         DELETE FROM sca_passkey_registrations WHERE challenge = $1 AND platform_id = $2 AND mode = $3 AND customer_id = $4 AND expires_at > $5 RETURNING challenge
       ) SELECT challenge FROM consumed`,
      [challenge, caller.platformId, caller.mode, customerId, now],
    );
    return rows.length === 1;
  }
}

const alreadyEnrolled = () => new ApiError('PASSKEY_ALREADY_ENROLLED', 'the customer already has an SCA passkey: delete it first');

/** The challenge inside clientDataJSON, or undefined for anything malformed (answered 400 by the caller). */
function challengeOf(response: RegistrationResponseJSON): string | undefined {
  try {
    const challenge = decodeClientDataJSON(response.response.clientDataJSON).challenge;
    return typeof challenge === 'string' && challenge.length > 0 && challenge.length <= 512 ? challenge : undefined;
  } catch {
    return undefined;
  }
}

function transportsOf(response: RegistrationResponseJSON): AuthenticatorTransportFuture[] {
  const transports = response.response?.transports;
  return Array.isArray(transports) ? transports.filter((t): t is AuthenticatorTransportFuture => typeof t === 'string').slice(0, 8) : [];
}
