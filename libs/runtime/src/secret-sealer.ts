import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const SEALED = 'v1:';
const SEALED_BYTES = Buffer.from([1]);

/**
 * Seals secrets at rest (AES-256-GCM) under a key derived from the server key (SECRET_HASH_KEY) for one purpose, so
 * a database dump alone reveals none of them. The caller names each value's place (`context`, the GCM associated
 * data), so a sealed value copied to another row does not open there.
 */
export class SecretSealer {
  private readonly key: Buffer;

  constructor(serverKey: Buffer, purpose: string) {
    this.key = Buffer.from(hkdfSync('sha256', serverKey, Buffer.alloc(0), purpose, 32));
  }

  /** `v1:` iv, tag and ciphertext (base64). */
  seal(plain: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${SEALED}${iv.toString('base64')}:${cipher.getAuthTag().toString('base64')}:${body.toString('base64')}`;
  }

  /** Throws when the value was sealed under another key or context, or was altered. */
  open(sealed: string, context: string): string {
    if (!sealed.startsWith(SEALED)) throw new Error('not a sealed value');
    const [iv, tag, body] = sealed.slice(SEALED.length).split(':').map((part) => Buffer.from(part, 'base64'));
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(context)).setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  }

  /** Bytes (a document file): version byte 1, iv (12), tag (16), ciphertext; 29 bytes more than `plain`. */
  sealBytes(plain: Buffer, context: string): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([SEALED_BYTES, iv, cipher.getAuthTag(), body]);
  }

  /** Throws when the bytes were sealed under another key or context, or were altered. */
  openBytes(sealed: Buffer, context: string): Buffer {
    if (sealed.length < 29 || !sealed.subarray(0, 1).equals(SEALED_BYTES)) throw new Error('not sealed bytes');
    const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(1, 13)).setAAD(Buffer.from(context)).setAuthTag(sealed.subarray(13, 29));
    return Buffer.concat([decipher.update(sealed.subarray(29)), decipher.final()]);
  }

  isSealed(value: string): boolean {
    return value.startsWith(SEALED);
  }
}
