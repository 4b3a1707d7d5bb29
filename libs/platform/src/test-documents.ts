import { crc32, deflateSync } from 'node:zlib';
import { HttpResult } from '@payments/testing';
import { TestPlatform, type PlatformApi } from './test-platform';

/**
 * Test fixtures for documents: tiny but well-formed PDF, JPEG and PNG files built here (no binary fixtures in
 * the repository), multipart requests over real HTTP, and document holders.
 */

/** A one-page PDF with a correct cross-reference table. */
export function tinyPdf(): Buffer {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 72 72] >>'];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xrefAt = Buffer.byteLength(body, 'latin1');
  const entries = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A 1×1 grey PNG: signature, IHDR, one IDAT row, IEND, each chunk with its CRC. */
export function tinyPng(shade = 0x80): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]); // 1×1, 8-bit greyscale
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.from([0, shade]))), chunk('IEND', Buffer.alloc(0))]);
}

/**
 * A 1×1 baseline greyscale JPEG: one 8×8 block whose coefficients are all zero, coded with one-symbol Huffman
 * tables (DC category 0 and AC end-of-block each get the 1-bit code `0`), so the scan is the two bits `00`.
 */
export function tinyJpeg(): Buffer {
  const segment = (marker: number, payload: number[]) => [0xff, marker, (payload.length + 2) >> 8, (payload.length + 2) & 0xff, ...payload];
  const oneSymbolTable = (tableClass: number) => [tableClass << 4, 1, ...new Array(15).fill(0), 0x00];
  return Buffer.from([
    0xff, 0xd8, // SOI
    ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]), // APP0 JFIF 1.1
    ...segment(0xdb, [0x00, ...new Array(64).fill(1)]), // DQT: table 0, all ones
    ...segment(0xc0, [8, 0, 1, 0, 1, 1, 1, 0x11, 0]), // SOF0: 8-bit, 1×1, one component
    ...segment(0xc4, oneSymbolTable(0)), // DHT DC 0
    ...segment(0xc4, oneSymbolTable(1)), // DHT AC 0
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]), // SOS
    0x3f, // `00` then padding ones
    0xff, 0xd9, // EOI
  ]);
}

export interface UploadFile {
  name: string;
  bytes: Buffer;
  /** The multipart part name; `file` unless a test sends a wrong one. */
  part?: string;
}

/** A multipart/form-data request over real HTTP (fetch builds the body and its boundary). */
export async function sendForm<T = any>(t: PlatformApi, method: string, path: string, fields: Record<string, string>, files: UploadFile[] = [], options: { auth?: string; headers?: Record<string, string> } = {}): Promise<HttpResult<T>> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) form.append(file.part ?? 'file', new Blob([new Uint8Array(file.bytes)]), file.name);
  const response = await fetch(`${t.url}${path}`, { method, body: form, headers: { authorization: options.auth ?? t.tenant.sandbox, ...options.headers } });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // left as text: an assertion on the envelope then fails visibly
  }
  return { status: response.status, headers: response.headers, body: body as T };
}

/** A customer of the credential's platform and mode, created through POST /customers. */
export async function createCustomerHolder(t: PlatformApi, auth = t.tenant.sandbox): Promise<string> {
  const created = await t.call('POST', '/customers', { auth, body: { customerType: 'INDIVIDUAL', fullName: 'Document Holder' } });
  if (created.status !== 201) throw new Error(`POST /customers answered ${created.status}: ${JSON.stringify(created.body)}`);
  return created.body.id;
}

export async function uploadDocument(t: TestPlatform, holder: string, options: { auth?: string; file?: UploadFile; fields?: Record<string, string> } = {}): Promise<HttpResult> {
  const fields = { documentHolder: holder, documentType: 'PASSPORT', country: 'DE', ...options.fields };
  return sendForm(t, 'POST', '/documents', fields, [options.file ?? { name: 'passport.pdf', bytes: tinyPdf() }], { auth: options.auth });
}
