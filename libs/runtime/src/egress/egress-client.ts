import { lookup as dnsLookup } from 'node:dns';
import { Agent as HttpAgent, ClientRequest, IncomingMessage } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { LookupFunction } from 'node:net';
import { hostAddressOf, RefusedRange, refusedLiteralTarget, refusedRangeOf } from './address-ranges';

/** The operator setting that lets outbound calls reach private networks (local development only). */
export const EGRESS_ALLOW_PRIVATE_NETWORKS = 'EGRESS_ALLOW_PRIVATE_NETWORKS';

/** An outbound call refused before any byte was sent: its target is (or resolves to) a non-public address. */
export class EgressRefusedError extends Error {
  constructor(
    readonly address: string,
    readonly range: RefusedRange,
  ) {
    super(`refused: ${address} is a ${range} address (${EGRESS_ALLOW_PRIVATE_NETWORKS}=true allows it)`);
    this.name = 'EgressRefusedError';
  }
}

export interface EgressClientOptions {
  /** EGRESS_ALLOW_PRIVATE_NETWORKS: false refuses every non-public address, in every mode. */
  allowPrivateNetworks: boolean;
  /** Each refusal is logged here, naming the setting that would allow it. */
  log?: (message: string) => void;
  /** The resolver (tests play a hostile one); `dns.lookup` by default. */
  lookup?: LookupFunction;
}

export interface EgressRequest {
  headers: Record<string, string>;
  body: string;
  /** Covers connecting, the answer and reading the body. */
  timeoutMs: number;
  /** Bytes of the answer's body kept (the rest is never downloaded); 0 by default. */
  maxResponseBytes?: number;
  /** What the call is for, in the refusal's log line ("webhook delivery"). */
  purpose: string;
}

export interface EgressResponse {
  status: number;
  /** At most `maxResponseBytes` of the body. */
  body: Buffer;
}

/**
 * The one way the platform calls a URL it was given for a tenant (webhook endpoints, the contact-code gateway) or an
 * outside document it reads (the ECB's reference rates).
 * The target is checked where the connection is made: an address literal before connecting, a host name inside the
 * socket's own `lookup`, so the address connected to is the address checked and a name that resolves differently the
 * second time (DNS rebinding) gains nothing. Redirects are never followed (a 3xx is the answer). Requests are made
 * with `new ClientRequest` rather than `http.request`, which the tracing SDK patches: callers make their own CLIENT
 * span and send its `traceparent`, as they did with fetch, which that SDK does not trace either.
 */
export class EgressClient {
  private readonly agents = { 'http:': new HttpAgent({ keepAlive: false }), 'https:': new HttpsAgent({ keepAlive: false }) };
  private readonly resolve: LookupFunction;

  constructor(private readonly options: EgressClientOptions) {
    this.resolve = options.lookup ?? (dnsLookup as LookupFunction);
  }

  post(url: string, request: EgressRequest): Promise<EgressResponse> {
    return this.send('POST', url, request);
  }

  /** A GET (a document the platform reads, e.g. the ECB's reference rates), under the same rules as a POST. */
  get(url: string, request: Omit<EgressRequest, 'body'>): Promise<EgressResponse> {
    return this.send('GET', url, { ...request, body: '' });
  }

  private async send(method: 'GET' | 'POST', url: string, request: EgressRequest): Promise<EgressResponse> {
    const target = new URL(url);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error(`only http and https URLs are called, not ${target.protocol}`);
    const literal = hostAddressOf(target);
    if (literal) this.check(literal, target.hostname, request.purpose);
    const signal = AbortSignal.timeout(request.timeoutMs);
    const body = Buffer.from(request.body, 'utf8');
    return new Promise<EgressResponse>((resolve, reject) => {
      const req = new ClientRequest(
        {
          protocol: target.protocol,
          agent: this.agents[target.protocol as 'http:' | 'https:'],
          host: literal ?? target.hostname,
          port: target.port || undefined,
          path: `${target.pathname}${target.search}`,
          method,
          headers: method === 'POST' ? { ...request.headers, 'content-length': String(body.length) } : request.headers,
          lookup: literal ? undefined : this.checkedLookup(target.hostname, request.purpose),
          signal,
        },
        (response) => readBody(response, request.maxResponseBytes ?? 0).then((bytes) => resolve({ status: response.statusCode ?? 0, body: bytes }), reject),
      );
      req.once('error', (error) => reject(signal.aborted ? new Error(`timed out after ${request.timeoutMs} ms`) : error));
      req.end(method === 'POST' ? body : undefined);
    });
  }

  /**
   * Why a call to `url` would be refused before any name is resolved (its host is a non-public address literal),
   * for checking a URL when it is configured; undefined when allowed or when only connecting can tell. Throws on a
   * URL that does not parse.
   */
  refusalOf(url: string): EgressRefusedError | undefined {
    if (this.options.allowPrivateNetworks) return undefined;
    const refused = refusedLiteralTarget(url);
    return refused && new EgressRefusedError(refused.address, refused.range);
  }

  /** Throws (and logs) when private networks are refused and `address` is not public. */
  private check(address: string, host: string, purpose: string): void {
    if (this.options.allowPrivateNetworks) return;
    const range = refusedRangeOf(address);
    if (!range) return;
    const refused = new EgressRefusedError(address, range);
    this.options.log?.(`egress: ${purpose} to ${host} refused: ${address} is a ${range} address; ${EGRESS_ALLOW_PRIVATE_NETWORKS}=true allows private targets (local development only)`);
    throw refused;
  }

  /** The socket's resolver: every address it is given must pass, or the connection fails before it is opened. */
  private checkedLookup(host: string, purpose: string): LookupFunction {
    return (hostname, options, callback) => {
      this.resolve(hostname, options, (error, address, family) => {
        if (error) return callback(error, address, family);
        const addresses = typeof address === 'string' ? [address] : address.map((a) => a.address);
        try {
          for (const each of addresses) this.check(each, host, purpose);
        } catch (refused) {
          return callback(refused as NodeJS.ErrnoException, address, family);
        }
        callback(null, address, family);
      });
    };
  }
}

/** At most `max` bytes of the body; the rest is never downloaded. */
function readBody(response: IncomingMessage, max: number): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => resolve(Buffer.concat(chunks).subarray(0, max));
    if (max === 0) {
      response.destroy();
      return done();
    }
    response.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= max) {
        response.destroy();
        done();
      }
    });
    response.once('end', done);
    response.once('close', done); // a connection cut short keeps what came
    response.once('error', done);
  });
}
