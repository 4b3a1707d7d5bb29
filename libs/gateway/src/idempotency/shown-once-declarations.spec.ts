import { AnyHttpOperation, OPERATIONS } from '@payments/contracts';
import { buildOpenApiDocument } from '../openapi/openapi-document';

/**
 * The audit of issue #27 item 4, kept: every field of a success answer that looks like a secret (a secret, a token, a
 * code, a bearer link, sealed key material) is declared `shownOnce` by its operation, or listed below with the reason
 * it is not one; and every declared path names a field of the documented answer.
 */
type Schema = { $ref?: string; properties?: Record<string, Schema>; items?: Schema; allOf?: Schema[]; oneOf?: Schema[]; anyOf?: Schema[] };

const SECRET_NAME = /secret|token|^code$|url$|encrypted|privatekey|otp|pan$|cvv/i;
/** Named like a secret, shown again on GET or not a credential (path: why). */
const NOT_SECRET: Record<string, string> = {
  issuerTransactionToken: "the card issuer's opaque transaction id, shown on every read",
  networkTokenIdentifier: "a token's public network identifier",
  providerTokenIdentifier: "the provider's public token id",
  'UmaInvitation.code': 'the invitation code is the share link the inviter hands out; it is read back with GET /invitations/{code}',
  'UmaInvitation.url': 'the same share link',
  otpEncryptionTargetBundle: 'the enclave public key the client encrypts the OTP to: public',
  webhookEndpoint: 'configuration, shown on every read',
  url: 'the webhook URL of a test delivery',
  redirectUri: "the platform's own redirect",
  sourceTokenIdentifier: "a token's public network identifier",
  logoUrl: "the platform's logo",
  otpLength: 'a setting',
  webhookSecret: 'configuration shown on every read of /config to MANAGE credentials (PATCH, no Idempotency-Key)',
};
/** Currency codes (`…currency.code`, `…Currency.code`) are ISO 4217 and the like. */
const CURRENCY_CODE = /currency\.code$/i;

const doc = buildOpenApiDocument(OPERATIONS, 'v1') as { components: { schemas: Record<string, Schema> } };
const resolve = (schema: Schema): Schema => (schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()!] : schema);

/** Every property path of a schema (`a.b`, `list[].c`), with the name of the schema that holds the last step. */
function paths(schema: Schema, prefix = '', owner = '', seen = new Set<string>()): { path: string; name: string; owner: string }[] {
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop()!;
    if (seen.has(name)) return [];
    return paths(doc.components.schemas[name], prefix, name, new Set([...seen, name]));
  }
  const variants = [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])];
  const own = Object.entries(schema.properties ?? {}).flatMap(([name, child]) => {
    const path = `${prefix}${name}`;
    const resolved = resolve(child);
    const nested = resolved.items ? paths(resolved.items, `${path}[].`, owner, seen) : paths(child, `${path}.`, owner, seen);
    return [{ path, name, owner }, ...nested];
  });
  return [...own, ...variants.flatMap((v) => paths(v, prefix, owner, seen))];
}

function answerSchema(op: AnyHttpOperation): Schema | undefined {
  if (!op.response || op.status === 204) return undefined;
  return typeof op.response === 'string' ? { $ref: `#/components/schemas/${op.response}` } : undefined; // pages are reads
}

describe('shownOnce declarations', () => {
  const writes = OPERATIONS.filter((op) => op.method !== 'GET');

  it('every secret-like field of a write answer is declared shown once, or listed as not a secret with a reason', () => {
    const undeclared = writes.flatMap((op) => {
      const schema = answerSchema(op);
      if (!schema) return [];
      return paths(schema)
        .filter(({ path, name }) => SECRET_NAME.test(name) && !CURRENCY_CODE.test(path))
        .filter(({ path, name, owner }) => !op.shownOnce?.includes(path) && NOT_SECRET[name] === undefined && NOT_SECRET[`${owner}.${name}`] === undefined)
        .map(({ path }) => `${op.operationId}: ${path}`);
    });
    expect(undeclared).toEqual([]);
  });

  it('every declared path names a field of the documented answer', () => {
    const wrong = OPERATIONS.filter((op) => op.shownOnce).flatMap((op) => {
      const known = new Set(paths(answerSchema(op) ?? {}).map((p) => p.path));
      return op.shownOnce!.filter((path) => !known.has(path)).map((path) => `${op.operationId}: ${path}`);
    });
    expect(wrong).toEqual([]);
  });

  it('the audited operations declare their secrets', () => {
    const declared = Object.fromEntries(OPERATIONS.filter((op) => op.shownOnce).map((op) => [op.operationId, op.shownOnce]));
    expect(declared).toEqual({
      createToken: ['clientSecret'],
      createAgent: ['deviceCode.code'],
      regenerateAgentDeviceCode: ['code'],
      redeemAgentDeviceCode: ['accessToken'],
      revealCard: ['panEmbedUrl'],
      createCustomerKycLink: ['kycUrl', 'token'],
      verifyAuthCredential: ['encryptedSessionSigningKey'],
      refreshAuthSession: ['encryptedSessionSigningKey'],
      exportInternalAccount: ['encryptedWalletCredentials'],
    });
  });
});
