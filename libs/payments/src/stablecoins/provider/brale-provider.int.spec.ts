import { createServer, IncomingMessage, Server } from 'node:http';
import { ApiError } from '@payments/contracts';
import { BraleStablecoinProvider, decimalOf } from './brale-provider';
import type { ProviderCredentials } from './provider.port';

/**
 * The Brale adapter against a local HTTP server that answers as Brale's documented API does (OAuth2 client
 * credentials, accounts, addresses, transfers): what the adapter sends, and how it reads the answers.
 */
interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
}

const ACCOUNT = '2VcUIonJeVQzFoBuC7LdFT0dRe4';
const credentials: ProviderCredentials = { owner: 'StablecoinProviderAccount:link-a', environment: 'PRODUCTION', apiClientId: 'client', apiClientSecret: 'secret' };

describe('BraleStablecoinProvider (HTTP)', () => {
  let server: Server;
  let base: string;
  const seen: Seen[] = [];
  let transferStatus = 'pending';
  let failWith: number | undefined;

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      seen.push({ method: req.method ?? '', path, headers: req.headers, body: raw.startsWith('{') ? JSON.parse(raw) : raw });
      const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (failWith) return send(failWith, {});
      if (path === '/oauth2/token') {
        const ok = req.headers.authorization === `Basic ${Buffer.from('client:secret').toString('base64')}`;
        return ok ? send(200, { access_token: 'tok', expires_in: 3600 }) : send(401, { error: 'invalid_client' });
      }
      if (req.headers.authorization !== 'Bearer tok') return send(401, {});
      if (path === '/accounts') return send(200, { accounts: [ACCOUNT] });
      if (path === `/accounts/${ACCOUNT}/addresses`) return send(200, { addresses: [{ id: 'addrEvm', type: 'internal', address: '0xabc', transfer_types: ['base'] }, { id: 'addrSpark', type: 'internal', address: 'spark1custodial', transfer_types: ['spark'] }] });
      if (path.startsWith(`/accounts/${ACCOUNT}/addresses/addrSpark/balance`)) return path.includes('value_type=NOPE') ? send(404, {}) : send(200, { balance: { value: '0', currency: 'ACME' } });
      if (path === `/accounts/${ACCOUNT}/addresses/external` && req.method === 'POST') return send(201, { id: 'addrExternal' });
      if (path === `/accounts/${ACCOUNT}/transfers` && req.method === 'POST') return send(201, { id: 'transfer-1' });
      if (path === `/accounts/${ACCOUNT}/transfers/transfer-1`) return send(200, { status: transferStatus });
      return send(404, {});
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const provider = () => new BraleStablecoinProvider({ apiUrl: base, authUrl: `${base}/oauth2/token`, timeoutMs: 2_000 });

  it('verifies credentials with a client-credentials token and lists the accounts; refused credentials are INVALID', async () => {
    expect(await provider().verify(credentials)).toEqual({ status: 'ACTIVE', providerAccountIds: [ACCOUNT] });
    expect(await provider().verify({ ...credentials, apiClientSecret: 'wrong' })).toEqual({ status: 'INVALID', providerAccountIds: [] });
    const tokenCall = seen.find((s) => s.path === '/oauth2/token')!;
    expect(tokenCall).toMatchObject({ method: 'POST', body: 'grant_type=client_credentials' });
  });

  it('caches tokens per link and secret: a wrong secret for a cached client id is refused, another link exchanges its own, linking always exchanges', async () => {
    const adapter = provider();
    const exchanges = () => seen.filter((s) => s.path === '/oauth2/token').length;
    expect((await adapter.verify(credentials, true)).status).toBe('ACTIVE');
    const before = exchanges();
    expect((await adapter.verify(credentials, false)).status).toBe('ACTIVE'); // the link's own cached token
    expect(exchanges()).toBe(before);
    expect(await adapter.verify({ ...credentials, apiClientSecret: 'guess' }, false)).toEqual({ status: 'INVALID', providerAccountIds: [] });
    expect(await adapter.verify({ ...credentials, owner: 'platform-b/PRODUCTION', apiClientSecret: 'guess' }, true)).toEqual({ status: 'INVALID', providerAccountIds: [] });
    expect(exchanges()).toBe(before + 2);
    await adapter.verify({ ...credentials, owner: 'StablecoinProviderAccount:link-b' }, false);
    await adapter.verify(credentials, true);
    expect(exchanges()).toBe(before + 4); // another link's token and a link's own check are real exchanges
  });

  it('a token the provider does not hold on the custodial Spark address is refused; a known one gives its metadata', async () => {
    expect(await provider().token(credentials, ACCOUNT, 'ACME')).toEqual({ name: 'ACME', symbol: 'ACME', decimals: 6, baseCurrency: 'USD', issuanceStatus: 'PROVISIONED' });
    await expect(provider().token(credentials, ACCOUNT, 'NOPE')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('submits a wire-funded mint as a transfer (decimal amount, value and transfer types, Idempotency-Key = the operation) and maps its status', async () => {
    seen.length = 0;
    const adapter = provider();
    const submitted = await adapter.submit(credentials, {
      operationId: 'StablecoinOperation:1', providerAccountId: ACCOUNT, operationType: 'MINT', amount: '123450000', fiatAmount: 12_345, fiatCurrency: 'USD', valueType: 'ACME',
      source: { type: 'WIRE' }, tokenDestinationAddress: 'spark1destination',
    });
    expect(submitted).toMatchObject({ providerOperationId: 'transfer-1', stage: 'PENDING_FUNDING', providerStatus: 'pending', fundingInstructions: { rail: 'WIRE', reference: 'transfer-1' } });
    const external = seen.find((s) => s.path.endsWith('/addresses/external'))!;
    expect(external.body).toMatchObject({ transfer_types: ['spark'], address: 'spark1destination' });
    const transfer = seen.find((s) => s.path.endsWith('/transfers') && s.method === 'POST')!;
    expect(transfer.headers['idempotency-key']).toBe('StablecoinOperation:1');
    expect(transfer.body).toEqual({ amount: { value: '123.45', currency: 'USD' }, source: { value_type: 'USD', transfer_type: 'wire' }, destination: { value_type: 'ACME', transfer_type: 'spark', address_id: 'addrExternal' } });
    const recorded = { operationId: 'StablecoinOperation:1', providerAccountId: ACCOUNT, providerOperationId: 'transfer-1', amount: '123450000', fiatAmount: 12_345, fundingRequired: true, submittedAt: new Date().toISOString() };
    for (const [status, stage] of [['processing', 'PROCESSING'], ['complete', 'COMPLETED'], ['canceled', 'FAILED']] as const) {
      transferStatus = status;
      expect((await adapter.status(credentials, recorded)).stage).toBe(stage);
    }
    transferStatus = 'pending';
  });

  it('a provider that fails or cannot be reached is 503 SERVICE_UNAVAILABLE, never a crash', async () => {
    failWith = 502;
    await expect(provider().verify(credentials)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    failWith = undefined;
    const nowhere = new BraleStablecoinProvider({ apiUrl: 'http://127.0.0.1:1', authUrl: 'http://127.0.0.1:1/token', timeoutMs: 500 });
    const error = await nowhere.verify(credentials).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('SERVICE_UNAVAILABLE');
  });

  it('writes minor units as decimal strings without floats', () => {
    expect(decimalOf(12_345, 2)).toBe('123.45');
    expect(decimalOf(5, 2)).toBe('0.05');
    expect(decimalOf(Number.MAX_SAFE_INTEGER, 2)).toBe('90071992547409.91');
  });
});
