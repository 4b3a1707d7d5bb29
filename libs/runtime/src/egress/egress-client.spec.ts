import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { LookupFunction } from 'node:net';
import { EgressClient, EgressRefusedError } from './egress-client';

/**
 * The egress client against a real HTTP server on 127.0.0.1 (the only address these tests ever connect to): with
 * private networks refused, nothing reaches it whatever the spelling of its address or the name that resolves to
 * it; with them allowed, it is reached. The resolver is injectable so a test can play a name that resolves to
 * loopback (what DNS rebinding would do): the address connected to is the one checked, there is no earlier lookup.
 */
describe('EgressClient', () => {
  let server: Server;
  let port: number;
  const seen: string[] = [];
  let answer: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end('ok');

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req.url ?? '');
      answer(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    seen.length = 0;
    answer = (_req, res) => res.end('ok');
  });

  const post = (client: EgressClient, url: string, maxResponseBytes = 1024) =>
    client.post(url, { headers: { 'content-type': 'application/json' }, body: '{"a":1}', timeoutMs: 2_000, maxResponseBytes, purpose: 'test delivery' });

  /** A resolver that answers `addresses` for every name, the way a hostile DNS server would. */
  const resolvingTo =
    (...addresses: string[]): LookupFunction =>
    (_hostname, options, callback) => {
      const all = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
      if (options.all) callback(null, all);
      else callback(null, all[0].address, all[0].family);
    };

  describe('private networks refused (the default)', () => {
    const logs: string[] = [];
    const client = new EgressClient({ allowPrivateNetworks: false, log: (message) => logs.push(message) });

    it.each([
      '127.0.0.1',
      '2130706433',
      '0x7f000001',
      '0x7f.1',
      '017700000001',
      '0177.0.0.1',
      '127.1',
      '127.0.0.1.',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '[64:ff9b::127.0.0.1]',
      '[::127.0.0.1]',
    ])('http://%s:<port> never reaches the loopback receiver', async (host) => {
      await expect(post(client, `http://${host}:${port}/literal`)).rejects.toBeInstanceOf(EgressRefusedError);
      expect(seen).toEqual([]);
    });

    it('refuses [::1] and 0.0.0.0 (which connect to this host)', async () => {
      await expect(post(client, `http://[::1]:${port}/v6`)).rejects.toMatchObject({ range: 'loopback' });
      await expect(post(client, `http://0.0.0.0:${port}/any`)).rejects.toMatchObject({ range: 'unspecified' });
      expect(seen).toEqual([]);
    });

    it('refuses a host name that resolves to loopback, when connecting (localhost)', async () => {
      await expect(post(client, `http://localhost:${port}/name`)).rejects.toMatchObject({ range: 'loopback' });
      expect(seen).toEqual([]);
    });

    it('checks the addresses its own resolver returns, every one of them (a rebinding name)', async () => {
      const rebinding = new EgressClient({ allowPrivateNetworks: false, lookup: resolvingTo('127.0.0.1') });
      await expect(post(rebinding, `http://rebind.example.test:${port}/rebind`)).rejects.toMatchObject({ address: '127.0.0.1', range: 'loopback' });
      const mixed = new EgressClient({ allowPrivateNetworks: false, lookup: resolvingTo('127.0.0.1', '10.0.0.1') });
      await expect(post(mixed, `http://mixed.example.test:${port}/mixed`)).rejects.toBeInstanceOf(EgressRefusedError);
      expect(seen).toEqual([]);
    });

    it('logs each refusal with the setting that would allow it, and never the URL path', async () => {
      logs.length = 0;
      await expect(post(client, `http://127.0.0.1:${port}/secret-token-in-path`)).rejects.toBeInstanceOf(EgressRefusedError);
      expect(logs).toHaveLength(1);
      expect(logs[0]).toContain('test delivery');
      expect(logs[0]).toContain('127.0.0.1');
      expect(logs[0]).toContain('loopback');
      expect(logs[0]).toContain('EGRESS_ALLOW_PRIVATE_NETWORKS=true');
      expect(logs[0]).not.toContain('secret-token-in-path');
    });

    it('refuses what is not http(s)', async () => {
      await expect(post(client, `ftp://example.test/x`)).rejects.toThrow(/http/);
    });
  });

  describe('private networks allowed (EGRESS_ALLOW_PRIVATE_NETWORKS=true, local development)', () => {
    const client = new EgressClient({ allowPrivateNetworks: true });

    it('reaches a loopback receiver in any spelling, and answers its status and the first bytes of its body', async () => {
      answer = (_req, res) => res.writeHead(201).end('x'.repeat(5_000));
      const result = await post(client, `http://2130706433:${port}/ok`, 100);
      expect(result.status).toBe(201);
      expect(result.body.length).toBe(100);
      expect(seen).toEqual(['/ok']);
    });

    it('connects to the address its resolver checked', async () => {
      const named = new EgressClient({ allowPrivateNetworks: true, lookup: resolvingTo('127.0.0.1') });
      expect((await post(named, `http://receiver.example.test:${port}/named`)).status).toBe(200);
      expect(seen).toEqual(['/named']);
    });

    it('follows no redirect: a 3xx is the answer', async () => {
      answer = (req, res) => (req.url === '/moved' ? res.writeHead(302, { location: `http://127.0.0.1:${port}/target` }).end() : res.end('target'));
      expect((await post(client, `http://127.0.0.1:${port}/moved`)).status).toBe(302);
      expect(seen).toEqual(['/moved']);
    });

    it('GETs a document (the ECB rates) under the same rules: no body sent, the answer read', async () => {
      const methods: string[] = [];
      answer = (req, res) => {
        methods.push(`${req.method} ${req.headers['content-length'] ?? '-'}`);
        res.end('<xml/>');
      };
      const result = await client.get(`http://127.0.0.1:${port}/doc.xml`, { headers: { accept: 'text/xml' }, timeoutMs: 2_000, maxResponseBytes: 100, purpose: 'test document' });
      expect({ status: result.status, body: result.body.toString() }).toEqual({ status: 200, body: '<xml/>' });
      expect(methods).toEqual(['GET -']);
      const refusing = new EgressClient({ allowPrivateNetworks: false });
      await expect(refusing.get(`http://127.1:${port}/doc.xml`, { headers: {}, timeoutMs: 2_000, purpose: 'test document' })).rejects.toMatchObject({ range: 'loopback' });
      expect(seen).toEqual(['/doc.xml']);
    });

    it('gives up after its timeout', async () => {
      answer = (_req, res) => void setTimeout(() => res.end('late'), 1_500);
      await expect(client.post(`http://127.0.0.1:${port}/slow`, { headers: {}, body: '', timeoutMs: 200, purpose: 'test' })).rejects.toThrow();
    });
  });
});
