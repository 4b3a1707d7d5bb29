import { ApiError } from '../errors';
import type { DocumentFilePayload } from '../documents.dto';
import type { UploadedPart } from './http-operation';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A file part on its way to a service inside an RPC message: its name and its bytes in base64. */
export function filePayload(part: UploadedPart): DocumentFilePayload {
  return { fileName: part.originalName, base64: part.buffer.toString('base64') };
}

/** The part's text, whatever its declared type (browsers send text/csv, Excel vnd.ms-excel, curl octet-stream). */
export function utf8Text(part: UploadedPart, expected: string): string {
  try {
    const text = UTF8.decode(part.buffer);
    if (!text.includes('\u0000')) return text;
  } catch {
    // not UTF-8: answered below
  }
  throw new ApiError('INVALID_INPUT', 'the file is not UTF-8 text', { errors: [{ field: 'file', message: `${expected} in UTF-8 is expected` }] });
}
