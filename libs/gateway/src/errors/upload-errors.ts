import { ErrorEnvelope } from '@payments/contracts';

// Errors of the multipart parser (busboy) that Nest's FileInterceptor passes on as plain errors; the ones it
// knows (boundary not found, malformed part header, unexpected end) arrive as BadRequestException already.
const PARSER_MESSAGES = /^(Malformed content type|Unsupported content type|Multipart: |Malformed part header|Unexpected end of (form|file))/;

/**
 * File upload failures a client causes, as envelopes: a multer error over the size limit is 413, any other multer
 * or multipart parser error 400 naming the part. Nest's FileInterceptor turns most multer errors into
 * PayloadTooLarge/BadRequest exceptions first; this catches the raw ones it leaves (e.g. STREAM_DESTROYED when the
 * client went away mid-upload), which would otherwise be 500s.
 */
export function uploadError(exception: unknown): ErrorEnvelope | undefined {
  if (!(exception instanceof Error)) return undefined;
  if (exception.name === 'MulterError') {
    const { code, field } = exception as Error & { code?: string; field?: string };
    if (code === 'LIMIT_FILE_SIZE') return { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'the file is too large' };
    return { status: 400, code: 'INVALID_INPUT', message: `invalid multipart body: ${exception.message}`, details: { errors: [{ field: field ?? 'file', message: exception.message }] } };
  }
  if (exception.constructor === Error && PARSER_MESSAGES.test(exception.message)) {
    return { status: 400, code: 'INVALID_INPUT', message: `invalid multipart body: ${exception.message}` };
  }
  return undefined;
}
