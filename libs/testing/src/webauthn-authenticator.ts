import { createHash, generateKeyPairSync, KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/** What a ceremony runs against: the server's challenge, the page's origin and the relying party id. */
export interface Ceremony {
  challenge: string;
  origin: string;
  rpId: string;
}

type Cbor = Parameters<typeof isoCBOR.encode>[0];
const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;
const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

/**
 * Test fixture: a WebAuthn authenticator in software (a P-256 / ES256 credential), producing what a browser hands a
 * page: a `none`-attestation RegistrationResponseJSON and AuthenticationResponseJSON assertions, byte for byte as the
 * WebAuthn spec lays them out (CBOR attestation object, authenticator data, DER ECDSA signature). Nothing here is
 * checked: the server's verification must catch every wrong value a test puts in.
 */
export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(32);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  /** The signature counter; authenticators that keep none (many platform passkeys) always report 0. */
  counter: number;

  constructor(private readonly options: { usesCounter?: boolean } = {}) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
    this.counter = options.usesCounter === false ? 0 : 1;
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  /** navigator.credentials.create(): user present and verified, counter as it stands. */
  register(ceremony: Ceremony, flags = FLAG_UP | FLAG_UV) {
    const clientDataJSON = this.clientData('webauthn.create', ceremony);
    const authData = Buffer.concat([this.authDataHeader(ceremony.rpId, flags | FLAG_AT, this.counter), Buffer.alloc(16), u16(this.credentialId.length), this.credentialId, this.coseKey()]);
    const attestationObject = isoCBOR.encode(new Map<string, Cbor>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]));
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ['internal'] },
    };
  }

  /** navigator.credentials.get(): each assertion counts up (when the authenticator counts), unless `counter` is given. */
  assert(ceremony: Ceremony, options: { flags?: number; counter?: number; type?: string } = {}) {
    if (options.counter === undefined && this.options.usesCounter !== false) this.counter += 1;
    const clientDataJSON = this.clientData(options.type ?? 'webauthn.get', ceremony);
    const authenticatorData = this.authDataHeader(ceremony.rpId, options.flags ?? FLAG_UP | FLAG_UV, options.counter ?? this.counter);
    const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), this.privateKey); // DER, as ES256 in WebAuthn
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authenticatorData), signature: b64url(signature) },
    };
  }

  private clientData(type: string, { challenge, origin }: Ceremony): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
  }

  private authDataHeader(rpId: string, flags: number, counter: number): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count]);
  }

  /** COSE_Key of the public key: kty EC2 (2), alg ES256 (-7), crv P-256 (1), x, y. */
  private coseKey(): Uint8Array {
    const jwk = this.publicKey.export({ format: 'jwk' });
    return isoCBOR.encode(
      new Map<number, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
  }
}

/** Authenticator-data flag bits, for tests that withhold user presence or verification. */
export const WEBAUTHN_FLAGS = { UP: FLAG_UP, UV: FLAG_UV } as const;

function u16(value: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(value);
  return b;
}
