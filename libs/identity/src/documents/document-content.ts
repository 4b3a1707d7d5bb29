import { createHash } from 'node:crypto';
import type { DocumentContentType } from '@payments/contracts';

/** Leading bytes of each accepted type. The name and the declared type of an upload are never trusted. */
const SIGNATURES: readonly { contentType: DocumentContentType; magic: Buffer }[] = [
  { contentType: 'application/pdf', magic: Buffer.from('%PDF-', 'latin1') },
  { contentType: 'image/jpeg', magic: Buffer.from([0xff, 0xd8, 0xff]) },
  { contentType: 'image/png', magic: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
];

/** The type the bytes really are, or undefined when they are none of PDF, JPEG and PNG. */
export function detectContentType(bytes: Buffer): DocumentContentType | undefined {
  return SIGNATURES.find(({ magic }) => bytes.length >= magic.length && bytes.subarray(0, magic.length).equals(magic))?.contentType;
}

export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
