import { request } from 'node:http';

/** One way to ask for an operation that a router and a guard could read differently from its canonical path. */
export interface Spelling {
  name: string;
  method: string;
  /** The raw request target, sent byte for byte (no client normalizes it). */
  path: string;
  headers?: Record<string, string>;
}

const encodeChar = (c: string, lower = false) => {
  const hex = `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
  return lower ? hex.toLowerCase() : hex;
};

/**
 * Every spelling of `canonical` (`/<version>/sandbox/...`, a concrete path) that is not the canonical one: case,
 * percent-encoded letters and slashes, dot segments (plain and encoded), doubled and trailing slashes, matrix
 * parameters, and method overrides by header or query. With `canonical: true` the canonical request is listed first.
 */
export function spellingsOf(method: string, canonical: string, options: { canonical?: boolean } = {}): Spelling[] {
  const [, version, ...rest] = canonical.split('/');
  const path = (...segments: string[]) => `/${[version, ...segments].join('/')}`;
  const statics = rest.map((segment, i) => ({ segment, i })).filter(({ segment }) => /^[a-z_-]+$/.test(segment));
  const withSegment = (i: number, replacement: string) => path(...rest.map((s, j) => (j === i ? replacement : s)));
  const spellings: Spelling[] = options.canonical ? [{ name: 'canonical', method, path: canonical }] : [];
  const add = (name: string, target: string, extra: Partial<Spelling> = {}) => spellings.push({ name, method, path: target, ...extra });

  for (const { segment, i } of statics) {
    add(`capitalised ${segment}`, withSegment(i, segment[0].toUpperCase() + segment.slice(1)));
    add(`upper-case ${segment}`, withSegment(i, segment.toUpperCase()));
    add(`%-encoded first letter of ${segment}`, withSegment(i, encodeChar(segment[0]) + segment.slice(1)));
    add(`%-encoded (lower hex) last letter of ${segment}`, withSegment(i, segment.slice(0, -1) + encodeChar(segment.slice(-1), true)));
    add(`%-encoded upper-case first letter of ${segment}`, withSegment(i, encodeChar(segment[0].toUpperCase()) + segment.slice(1)));
    add(`${segment} entirely %-encoded`, withSegment(i, [...segment].map((c) => encodeChar(c)).join('')));
    add(`matrix parameter on ${segment}`, withSegment(i, `${segment};x=y`));
  }
  add('upper-case path', canonical.toUpperCase());
  for (let i = 0; i < rest.length - 1; i++) {
    const joined = (sep: string) => path(...rest.slice(0, i), `${rest[i]}${sep}${rest[i + 1]}`, ...rest.slice(i + 2));
    add(`%2F between ${rest[i]} and ${rest[i + 1]}`, joined('%2F'));
    add(`%2f between ${rest[i]} and ${rest[i + 1]}`, joined('%2f'));
    add(`%5C between ${rest[i]} and ${rest[i + 1]}`, joined('%5C'));
    add(`doubled slash after ${rest[i]}`, joined('//'));
    add(`dot segment after ${rest[i]}`, joined('/./'));
    add(`%2e segment after ${rest[i]}`, joined('/%2e/'));
    add(`dot-dot segment after ${rest[i]}`, joined(`/x/../`));
    add(`%2e%2e segment after ${rest[i]}`, joined(`/x/%2e%2e/`));
    add(`%2E%2E%2F after ${rest[i]}`, joined(`/x%2F%2E%2E%2F`));
  }
  add('dot segment after the version', path('.', ...rest));
  add('dot-dot segment after the version', path('x', '..', ...rest));
  add('doubled slash after the version', path('', ...rest));
  add('doubled leading slash', `/${canonical}`);
  add('matrix parameter on the version', `/${version};v=1/${rest.join('/')}`);
  add('trailing slash', `${canonical}/`);
  add('two trailing slashes', `${canonical}//`);
  add('trailing dot segment', `${canonical}/.`);
  add('trailing matrix parameter', `${canonical};x=y`);
  add('capitalised with a trailing slash', `${withSegment(statics[0]?.i ?? 0, rest[statics[0]?.i ?? 0].toUpperCase())}/`);

  for (const other of ['GET', 'PUT', 'PATCH', 'DELETE', 'POST'].filter((m) => m !== method)) {
    for (const header of ['X-HTTP-Method-Override', 'X-Method-Override', 'X-HTTP-Method']) {
      spellings.push({ name: `${other} with ${header}: ${method}`, method: other, path: canonical, headers: { [header]: method } });
    }
    spellings.push({ name: `${other} with ?_method=${method}`, method: other, path: `${canonical}?_method=${method}` });
  }
  return spellings;
}

export interface RawAnswer {
  status: number;
  body: any;
}

/** One request with the target exactly as given (fetch would resolve dot segments and re-encode). */
export function rawRequest(baseUrl: string, spelling: Spelling, auth: string, body?: unknown): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: spelling.method,
        path: spelling.path,
        headers: { authorization: auth, ...(payload ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } : {}), ...spelling.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON: the envelope assertion names it
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
