/** Response schemas of SCA passkey enrolment (merged into RESPONSE_SCHEMAS). */
export const SCA_SCHEMAS = {
  ScaPasskeyRegistrationOptions: {
    type: 'object',
    required: ['options', 'passkeyAllowedOrigins', 'expiresAt'],
    properties: {
      options: {
        type: 'object',
        description: 'PublicKeyCredentialCreationOptionsJSON (WebAuthn L3) for navigator.credentials.create; `challenge` is single-use.',
        required: ['rp', 'user', 'challenge', 'pubKeyCredParams'],
      },
      passkeyAllowedOrigins: { type: 'array', items: { type: 'string', format: 'uri' }, description: 'Origins the ceremony may run on; send the one used as `origin`.' },
      expiresAt: { type: 'string', format: 'date-time', description: 'The challenge cannot be answered after this.' },
    },
  },
  ScaPasskey: {
    type: 'object',
    required: ['id', 'customerId', 'credentialId', 'transports', 'createdAt'],
    properties: {
      id: { type: 'string', pattern: '^ScaPasskey:' },
      customerId: { type: 'string', pattern: '^Customer:' },
      credentialId: { type: 'string', description: 'The WebAuthn credential id, base64url.' },
      transports: { type: 'array', items: { type: 'string' }, description: 'As the authenticator reported them (usb, nfc, ble, internal, hybrid).' },
      createdAt: { type: 'string', format: 'date-time' },
    },
  },
} as const;
