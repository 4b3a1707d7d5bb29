import { createHmac, createPrivateKey, KeyObject, sign } from 'node:crypto';

/**
 * `X-Service-Signature: {"v":"1","s":"<base64 DER ECDSA P-256 SHA-256 over the raw body>"}` (docs/webhooks.md).
 * node's ECDSA output is DER by default, which is what receivers' verifiers expect.
 */
export function serviceSignature(body: string, privateKey: KeyObject | string): string {
  const key = typeof privateKey === 'string' ? createPrivateKey(privateKey) : privateKey;
  const signature = sign('sha256', Buffer.from(body, 'utf8'), key).toString('base64');
  return JSON.stringify({ v: '1', s: signature });
}

/** Standard Webhooks `webhook-signature`: `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` with the decoded secret. */
export function standardWebhookSignature(secret: string, webhookId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  const mac = createHmac('sha256', key).update(`${webhookId}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
  return `v1,${mac}`;
}

/** Every header of one signed attempt; the timestamp is the attempt's (replay windows count from it). */
export function signedHeaders(keys: { privateKeyPem: string; secret: string }, webhookId: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-service-signature': serviceSignature(body, keys.privateKeyPem),
    'webhook-id': webhookId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': standardWebhookSignature(keys.secret, webhookId, timestampSeconds, body),
  };
}
