import { Writable } from 'node:stream';
import { QueryFailedError } from 'typeorm';
import { createLogger } from './logger';

/** pino's JSON lines, as an operator's log shipper would read them. */
function capture(): { stream: Writable; text: () => string; last: () => Record<string, any> } {
  const chunks: string[] = [];
  const stream = new Writable({ write: (chunk, _encoding, done) => (chunks.push(String(chunk)), done()) });
  const text = () => chunks.join('');
  return { stream, text, last: () => JSON.parse(text().trim().split('\n').at(-1)!) };
}

describe('the logger redacts secrets at any depth, PAN-looking digits anywhere, token paths, and database parameters', () => {
  const PAN = '4000001234567899'; // Luhn-valid
  const SPACED_PAN = '4111 1111 1111 1111';
  const SECRETS = ['s3cr3t-client', 'hunter2-password', 'otp-424242', 'dev-code-abc', 'tok-ABCDEF', '-----BEGIN PRIVATE KEY-----MIIE', 'cvv-987', 'Bearer eyJhbGciOi'];

  it('keys that hold secrets are censored wherever they are: nested objects, arrays, any spelling', () => {
    const logs = capture();
    createLogger('redaction', 'info', logs.stream).info(
      {
        request: { headers: { Authorization: SECRETS[7] }, body: { customer: { card: { pan: PAN, cvv: SECRETS[6] } } } },
        credentials: [{ clientId: 'visible-id', client_secret: SECRETS[0] }, { password: SECRETS[1] }],
        deep: { a: { b: { c: { d: { e: { otp: SECRETS[2], deviceCode: SECRETS[3], accessToken: SECRETS[4], private_key: SECRETS[5] } } } } } },
        amount: 1234,
      },
      'handled',
    );
    const line = logs.last();
    for (const secret of [...SECRETS, PAN]) expect(logs.text()).not.toContain(secret);
    expect(line.credentials[0].clientId).toBe('visible-id');
    expect(line.credentials[0].client_secret).toBe('[redacted]');
    expect(line.deep.a.b.c.d.e.otp).toBe('[redacted]');
    expect(line.request.body.customer.card.pan).toBe('[redacted]');
    expect(line.amount).toBe(1234);
    expect(line.msg).toBe('handled');
  });

  it('PAN-looking digit runs (Luhn-valid, 13-19 digits, spaced or dashed) are masked in any string, messages included', () => {
    const logs = capture();
    const logger = createLogger('redaction', 'info', logs.stream);
    logger.info({ note: `card ${PAN} declined`, list: [`x ${SPACED_PAN} y`] }, `charging ${SPACED_PAN.replace(/ /g, '-')}`);
    for (const pan of [PAN, SPACED_PAN, SPACED_PAN.replace(/ /g, '-'), '1111 1111 1111']) expect(logs.text()).not.toContain(pan);
    // Ids and amounts that are not Luhn-valid card numbers stay (a timestamp, an order number).
    logger.info({ at: '1764222590001', order: 'Order:0193a4f5' }, 'kept');
    expect(logs.last()).toMatchObject({ at: '1764222590001', order: 'Order:0193a4f5' });
  });

  it('tokens in card-reveal, KYC and device-code paths are cut from any string', () => {
    const logs = capture();
    createLogger('redaction', 'info', logs.stream).info({ url: '/card-reveal/eyJjIjoi.abcDEF-_' , target: 'http://h/kyc/KycTok3n?x=1' }, 'GET /2025-10-13/agents/device-codes/DEVC0DE99/redeem failed');
    for (const token of ['eyJjIjoi', 'abcDEF-_', 'KycTok3n', 'DEVC0DE99']) expect(logs.text()).not.toContain(token);
    expect(logs.last()).toMatchObject({ url: '/card-reveal/[redacted]', target: 'http://h/kyc/[redacted]?x=1', msg: 'GET /2025-10-13/agents/device-codes/[redacted]/redeem failed' });
  });

  it('a database error is logged without its parameters (nor the row values PostgreSQL quotes in detail), as err or as cause', () => {
    const driverError = Object.assign(new Error('duplicate key value violates unique constraint "customers_email_key"'), {
      code: '23505',
      detail: 'Key (email)=(jane.doe@example.com) already exists.',
      constraint: 'customers_email_key',
    });
    const error = new QueryFailedError('INSERT INTO customers (email, tax_id) VALUES ($1, $2)', ['jane.doe@example.com', '123-45-6789'], driverError);
    const logs = capture();
    const logger = createLogger('redaction', 'info', logs.stream);
    logger.error({ err: error }, 'insert failed');
    logger.error(error);
    logger.error({ err: new Error('command failed', { cause: error }) }, 'wrapped');
    logger.error({ failure: { error } }, 'elsewhere');
    expect(logs.text()).not.toContain('jane.doe');
    expect(logs.text()).not.toContain('123-45-6789');
    const [first, second] = logs.text().trim().split('\n').map((l) => JSON.parse(l));
    for (const line of [first, second]) {
      expect(line.err).toMatchObject({ type: 'QueryFailedError', message: expect.stringContaining('customers_email_key'), code: '23505', query: 'INSERT INTO customers (email, tax_id) VALUES ($1, $2)' });
      expect(line.err).not.toHaveProperty('parameters');
      expect(line.err.stack).toContain('QueryFailedError');
    }
  });
});
