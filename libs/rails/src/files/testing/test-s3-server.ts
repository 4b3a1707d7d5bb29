/**
 * Test entry point: a small S3-compatible server, run as its own process (`node test-s3-server.ts`: Node 24 strips the
 * types; node: imports only, no syntax that needs transpiling) so S3FileStore is tested over loopback against a real
 * HTTP peer, as it would run against MinIO. Path-style addressing only (`/bucket/key`); one bucket.
 *
 * What it checks, per request:
 * - SigV4: the Authorization header is AWS4-HMAC-SHA256 with the configured access key id and is verified in full
 *   (canonical request, string to sign, signature with the configured secret); x-amz-date is within 15 minutes; the
 *   signed x-amz-content-sha256 is the body's SHA-256 (or UNSIGNED-PAYLOAD). Any failure: 403.
 * - PutObject: `If-None-Match: *` on a taken key → 412 PreconditionFailed (any other If-None-Match → 501);
 *   x-amz-checksum-sha256, when sent, must be the body's SHA-256 → else 400 BadDigest; aws-chunked bodies are refused (501).
 * - GetObject: the bytes; with `x-amz-checksum-mode: ENABLED`, the SHA-256 sent at the upload (FULL_OBJECT). 404 NoSuchKey.
 * - ListObjectsV2 (`list-type=2`): keys under `prefix`, sorted, at most S3_PAGE_SIZE a page, with continuation tokens.
 * Control (no auth, loopback tests only): POST /_control/faults {status, count} answers the next `count` S3 requests
 * with `status`; PUT /_control/objects/<key> stores bytes as another party (a bank) would, without a checksum (with
 * `x-test-keep-checksum: 1`, keeping the old object's checksum: damage at rest); GET /_control/objects/<key> tells
 * its size and the checksum kept from its upload; GET /_control/requests counts requests by operation.
 *
 * Env: S3_TEST_PORT (0: any), S3_TEST_BUCKET, S3_TEST_ACCESS_KEY_ID, S3_TEST_SECRET_ACCESS_KEY, S3_TEST_REGION,
 * S3_PAGE_SIZE (default 1000). Prints `listening on http://127.0.0.1:<port>` when ready.
 */
import { createHash, createHmac } from 'node:crypto';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';

const BUCKET = process.env.S3_TEST_BUCKET ?? 'rails';
const ACCESS_KEY_ID = process.env.S3_TEST_ACCESS_KEY_ID ?? '';
const SECRET = process.env.S3_TEST_SECRET_ACCESS_KEY ?? '';
const REGION = process.env.S3_TEST_REGION ?? 'us-east-1';
const PAGE_SIZE = Number(process.env.S3_PAGE_SIZE ?? 1000);

interface StoredObject {
  body: Buffer;
  sha256?: string;
  etag: string;
  lastModified: Date;
}

const objects = new Map<string, StoredObject>();
const requests: Record<string, number> = {};
let fault: { status: number; count: number } | undefined;

const sha256Hex = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function store(key: string, body: Buffer, sha256?: string): StoredObject {
  const o = { body, sha256, etag: `"${createHash('md5').update(body).digest('hex')}"`, lastModified: new Date() };
  objects.set(key, o);
  return o;
}

function error(res: ServerResponse, status: number, code: string, message: string): void {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${xml(message)}</Message></Error>`;
  res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** S3's URI encoding: every byte but unreserved characters, '/' kept in paths. */
function uriEncode(s: string, keepSlash: boolean): string {
  return encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%2F/g, keepSlash ? '/' : '%2F');
}

/** Undefined when the request is signed by the configured key over these bytes; else why not. */
function signatureProblem(req: IncomingMessage, url: URL, body: Buffer): string | undefined {
  const auth = req.headers.authorization ?? '';
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(auth);
  if (!m) return 'no AWS4-HMAC-SHA256 Authorization header';
  const [, keyId, day, region, signedHeaders, signature] = m;
  if (keyId !== ACCESS_KEY_ID) return 'unknown access key id';
  if (region !== REGION) return `region ${region} is not ${REGION}`;
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  const at = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!at || amzDate.slice(0, 8) !== day) return 'x-amz-date missing or not the credential day';
  if (Math.abs(Date.UTC(+at[1], +at[2] - 1, +at[3], +at[4], +at[5], +at[6]) - Date.now()) > 15 * 60_000) return 'x-amz-date too far from now';
  const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
  if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256Hex(body)) return 'x-amz-content-sha256 is not the SHA-256 of the body';
  const names = signedHeaders.split(';');
  if (!names.includes('host') || !names.includes('x-amz-date') || !names.includes('x-amz-content-sha256')) return 'host, x-amz-date and x-amz-content-sha256 must be signed';
  const canonicalHeaders = names.map((n) => `${n}:${String(req.headers[n] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const query = [...url.searchParams.entries()]
    .map(([k, v]) => [uriEncode(k, false), uriEncode(v, false)])
    .sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const path = uriEncode(decodeURIComponent(url.pathname), true);
  const canonicalRequest = [req.method, path, query, canonicalHeaders, signedHeaders, payloadHash].join('\n');
  const scope = `${day}/${region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${SECRET}`, day), region), 's3'), 'aws4_request');
  return hmac(key, toSign).toString('hex') === signature ? undefined : 'signature does not match';
}

function handle(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname.startsWith('/_control/')) return control(req, res, url, body);
  const [, bucket, ...rest] = url.pathname.split('/');
  const key = decodeURIComponent(rest.join('/'));
  const operation = req.method === 'PUT' ? 'PutObject' : req.method === 'GET' && key === '' ? 'ListObjectsV2' : req.method === 'GET' ? 'GetObject' : `${req.method}`;
  requests[operation] = (requests[operation] ?? 0) + 1;
  if (fault && fault.count > 0) {
    fault.count--;
    return error(res, fault.status, 'InternalError', 'injected fault');
  }
  const problem = signatureProblem(req, url, body);
  if (problem) return error(res, 403, 'SignatureDoesNotMatch', problem);
  if (decodeURIComponent(bucket) !== BUCKET) return error(res, 404, 'NoSuchBucket', 'The specified bucket does not exist');
  if (operation === 'PutObject') return putObject(req, res, key, body);
  if (operation === 'GetObject') return getObject(req, res, key);
  if (operation === 'ListObjectsV2' && url.searchParams.get('list-type') === '2') return listObjects(res, url);
  return error(res, 501, 'NotImplemented', `${req.method} ${url.pathname}${url.search} is not implemented here`);
}

function putObject(req: IncomingMessage, res: ServerResponse, key: string, body: Buffer): void {
  if (String(req.headers['content-encoding'] ?? '').includes('aws-chunked')) return error(res, 501, 'NotImplemented', 'aws-chunked uploads are not taken');
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined && ifNoneMatch !== '*') return error(res, 501, 'NotImplemented', 'If-None-Match takes * only');
  const checksum = req.headers['x-amz-checksum-sha256'];
  const actual = createHash('sha256').update(body).digest('base64');
  if (checksum !== undefined && checksum !== actual) return error(res, 400, 'BadDigest', 'The SHA256 you specified did not match the calculated checksum.');
  // Checked and stored in one turn of the event loop: of concurrent conditional writers exactly one gets here first.
  if (ifNoneMatch === '*' && objects.has(key)) return error(res, 412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold');
  const o = store(key, body, checksum === undefined ? undefined : actual);
  res.writeHead(200, { etag: o.etag, ...(o.sha256 ? { 'x-amz-checksum-sha256': o.sha256, 'x-amz-checksum-type': 'FULL_OBJECT' } : {}), 'content-length': 0 });
  res.end();
}

function getObject(req: IncomingMessage, res: ServerResponse, key: string): void {
  const o = objects.get(key);
  if (!o) return error(res, 404, 'NoSuchKey', 'The specified key does not exist.');
  const withChecksum = req.headers['x-amz-checksum-mode'] === 'ENABLED' && o.sha256;
  res.writeHead(200, {
    'content-type': 'application/octet-stream',
    'content-length': o.body.length,
    etag: o.etag,
    'last-modified': o.lastModified.toUTCString(),
    ...(withChecksum ? { 'x-amz-checksum-sha256': o.sha256, 'x-amz-checksum-type': 'FULL_OBJECT' } : {}),
  });
  res.end(o.body);
}

function listObjects(res: ServerResponse, url: URL): void {
  const prefix = url.searchParams.get('prefix') ?? '';
  const after = url.searchParams.get('continuation-token') ? Buffer.from(url.searchParams.get('continuation-token')!, 'base64url').toString() : (url.searchParams.get('start-after') ?? '');
  const maxKeys = Math.min(PAGE_SIZE, Number(url.searchParams.get('max-keys') ?? 1000));
  const keys = [...objects.keys()].filter((k) => k.startsWith(prefix) && k > after).sort();
  const page = keys.slice(0, maxKeys);
  const truncated = keys.length > page.length;
  const contents = page
    .map((k) => {
      const o = objects.get(k)!;
      return `<Contents><Key>${xml(k)}</Key><LastModified>${o.lastModified.toISOString()}</LastModified><ETag>${xml(o.etag)}</ETag><Size>${o.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
    })
    .join('');
  const token = url.searchParams.get('continuation-token');
  const body =
    `<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${BUCKET}</Name><Prefix>${xml(prefix)}</Prefix>` +
    `<KeyCount>${page.length}</KeyCount><MaxKeys>${maxKeys}</MaxKeys><IsTruncated>${truncated}</IsTruncated>` +
    (token ? `<ContinuationToken>${xml(token)}</ContinuationToken>` : '') +
    (truncated ? `<NextContinuationToken>${Buffer.from(page[page.length - 1]).toString('base64url')}</NextContinuationToken>` : '') +
    `${contents}</ListBucketResult>`;
  res.writeHead(200, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function control(req: IncomingMessage, res: ServerResponse, url: URL, body: Buffer): void {
  const json = (status: number, value: unknown) => {
    const text = JSON.stringify(value);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
  if (req.method === 'POST' && url.pathname === '/_control/faults') {
    const f = JSON.parse(body.toString() || '{}') as { status?: number; count?: number };
    fault = { status: f.status ?? 500, count: f.count ?? 0 };
    return json(200, fault);
  }
  if (url.pathname.startsWith('/_control/objects/')) {
    const key = decodeURIComponent(url.pathname.slice('/_control/objects/'.length));
    const o = objects.get(key);
    if (req.method === 'GET') return o ? json(200, { bytes: o.body.length, sha256: o.sha256 ?? null }) : json(404, {});
    if (req.method === 'PUT') {
      // x-test-keep-checksum: the bytes change under the checksum the upload kept (damage at rest, for read's check).
      store(key, body, req.headers['x-test-keep-checksum'] ? o?.sha256 : undefined);
      return json(200, {});
    }
  }
  if (req.method === 'GET' && url.pathname === '/_control/requests') return json(200, requests);
  return json(404, { error: 'no such control' });
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    try {
      handle(req, res, Buffer.concat(chunks));
    } catch (e) {
      error(res, 500, 'InternalError', e instanceof Error ? e.message : String(e));
    }
  });
});
server.listen(Number(process.env.S3_TEST_PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
