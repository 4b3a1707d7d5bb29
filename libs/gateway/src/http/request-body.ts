import type { IncomingMessage, ServerResponse } from 'node:http';
import bodyParser from 'body-parser';
import busboy from 'busboy';
import type { FastifyRequest } from 'fastify';
import { ApiError, ErrorEnvelope } from '@payments/contracts';
import { bodyParserError } from '../errors/http-error.filter';
import { isMultipart } from './json-only';
import { GatewayRouteConfig, routeConfigOf } from './route-config';

/** An uploaded file as the operations read it (`request.file`). */
export interface UploadedFile {
  fieldname: string;
  originalname: string;
  mimetype: string;
  buffer: Buffer;
}

type Done = (error: Error | null, body?: unknown) => void;
type NodeMiddleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * The gateway's one body reader (a fastify content-type parser for every type; which types a route takes was
 * decided in the request checks): JSON through body-parser (the parser Express uses: gzip, deflate and br decoding
 * with the limit on the decoded bytes, charset rules, strict objects and arrays), multipart/form-data through
 * busboy on a route whose config takes files, and the raw bytes on a route that verifies a signature over them.
 */
export function readBody(jsonLimit: string) {
  const parsers = new Map<string, NodeMiddleware>();
  const once = (key: string, make: () => unknown) => parsers.get(key) ?? parsers.set(key, make() as NodeMiddleware).get(key)!;
  const json = (limit: string) => once(`json ${limit}`, () => bodyParser.json({ limit, strict: true, type: () => true }));
  const raw = (limit: string) => once(`raw ${limit}`, () => bodyParser.raw({ limit, type: () => true }));
  return (request: FastifyRequest, _payload: unknown, done: Done): void => {
    const config = routeConfigOf(request);
    if (config.multipart && isMultipart(request)) return readMultipart(request, config.multipart, done);
    if (config.forwarded) return readAsSent(request, config.forwarded.maxBytes, done);
    const parse = config.rawBody ? raw(config.rawBody.limit) : json(config.jsonLimit ?? jsonLimit);
    const message = request.raw as IncomingMessage & { body?: unknown };
    parse(message, undefined as unknown as ServerResponse, (error) => {
      if (error === undefined) return done(null, message.body);
      const envelope = bodyParserError(error, request.headers['content-encoding']);
      done(envelope ? ApiError.fromEnvelope(envelope) : (error as Error));
    });
  };
}

/**
 * One multipart body into its text fields (the body, a null-prototype object as multer made it) and its one file
 * part `file` (`request.file`), within the route's limits. Anything else a client can get wrong is a 400 naming the
 * part, a file over the limit a 413; the rest of the body is drained so the answer reaches the client.
 */
function readMultipart(request: FastifyRequest, limits: NonNullable<GatewayRouteConfig['multipart']>, done: Done): void {
  const stream = request.raw;
  let parser: busboy.Busboy;
  try {
    // busboy signals `limit` once a file reaches fileSize: one byte more than allowed is what refuses it.
    parser = busboy({ headers: request.headers, limits: { fileSize: limits.maxBytes + 1, files: 1, fields: limits.maxFields, fieldSize: 1024 }, defParamCharset: 'utf8' });
  } catch (error) {
    return done(ApiError.fromEnvelope(invalidMultipart((error as Error).message))); // no boundary, not multipart
  }
  const fields: Record<string, unknown> = Object.create(null);
  let file: UploadedFile | undefined;
  let settled = false;
  // A refusal of a body within the limit waits for the rest of it (drained, not kept): answered while the client
  // still writes, the connection closes under it and the client sees EPIPE instead of the 400. A body declared over
  // the limit, or of no declared length, is answered at once.
  const declared = Number(request.headers['content-length']);
  const drainFirst = Number.isFinite(declared) && declared <= limits.maxBytes + 64 * 1024;
  const fail = (envelope: ErrorEnvelope) => {
    if (settled) return;
    settled = true;
    stream.unpipe(parser);
    parser.removeAllListeners();
    parser.on('error', () => undefined);
    stream.resume();
    const answer = () => done(ApiError.fromEnvelope(envelope));
    if (!drainFirst || stream.readableEnded) return answer();
    stream.once('end', answer);
    stream.once('error', answer);
  };
  parser.on('file', (name, part, info) => {
    if (name !== 'file' || file) {
      part.resume();
      return fail(invalidMultipart('Unexpected field', name));
    }
    const chunks: Buffer[] = [];
    part.on('data', (chunk: Buffer) => chunks.push(chunk));
    part.on('limit', () => fail({ status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'the file is too large' }));
    part.on('end', () => {
      if (!settled) file = { fieldname: name, originalname: info.filename ?? '', mimetype: info.mimeType, buffer: Buffer.concat(chunks) };
    });
  });
  parser.on('field', (name, value, info) => {
    if (info.nameTruncated) return fail(invalidMultipart('Field name too long', name));
    if (info.valueTruncated) return fail(invalidMultipart('Field value too long', name));
    const earlier = fields[name];
    fields[name] = earlier === undefined ? value : Array.isArray(earlier) ? [...earlier, value] : [earlier, value];
  });
  parser.on('filesLimit', () => fail(invalidMultipart('Too many files', 'file')));
  parser.on('fieldsLimit', () => fail(invalidMultipart('Too many fields')));
  parser.on('error', (error: Error) => fail(invalidMultipart(error.message)));
  parser.on('close', () => {
    if (settled) return;
    settled = true;
    (request as FastifyRequest & { file?: UploadedFile }).file = file;
    done(null, fields);
  });
  stream.on('error', (error) => fail(invalidMultipart(error.message)));
  stream.pipe(parser);
}

/**
 * The bytes as sent, Content-Encoding untouched, refused with 413 past maxBytes: nothing is inflated here, and what
 * is over the limit is drained, not kept, so the answer reaches the client.
 */
function readAsSent(request: FastifyRequest, maxBytes: number, done: Done): void {
  const stream = request.raw;
  const chunks: Buffer[] = [];
  let length = 0;
  let settled = false;
  const settle = (error: Error | null, body?: Buffer) => {
    if (settled) return;
    settled = true;
    stream.removeListener('data', onData);
    done(error, body);
  };
  const onData = (chunk: Buffer) => {
    length += chunk.length;
    if (length <= maxBytes) return void chunks.push(chunk);
    chunks.length = 0;
    stream.resume();
    settle(ApiError.fromEnvelope({ status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'the request body is too large' }));
  };
  stream.on('data', onData);
  stream.once('end', () => settle(null, Buffer.concat(chunks)));
  stream.once('error', (error) => settle(ApiError.fromEnvelope({ status: 400, code: 'INVALID_INPUT', message: `the request body could not be read: ${error.message}` })));
}

function invalidMultipart(message: string, field = 'file'): ErrorEnvelope {
  return { status: 400, code: 'INVALID_INPUT', message: `invalid multipart body: ${message}`, details: { errors: [{ field, message }] } };
}
