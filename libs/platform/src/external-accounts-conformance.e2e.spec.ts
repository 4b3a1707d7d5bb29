import { writeFileSync } from 'node:fs';
import { eventually, HttpResult } from '@payments/testing';
import { createCustomerId, untilStatus } from './test-external-accounts';
import { usdAccount } from './test-quotes';
import { startTestPlatform, TestPlatform } from './test-platform';

/**
 * External accounts as the published API's clients use them (reference/conformance.md): optional USD fields, the
 * client library's `countries` and `paymentRails`, the documentation's example accounts (checksums relaxed in the
 * sandbox only), the published flat business beneficiary, list filters, the receiver lookup and its lookupId.
 * With EXTERNAL_ACCOUNTS_CAPTURE=<file> the 2xx answers are written there, to be checked against a published schema.
 */

const config = (currencyCode: string) => ({ currencyCode, minAmount: 100, maxAmount: 5_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] });

/** The beneficiary of the published create examples, with the phone and residence some currencies also need. */
const JOHN_DOE = {
  beneficiaryType: 'INDIVIDUAL',
  fullName: 'John Doe',
  birthDate: '1990-01-15',
  nationality: 'US',
  address: { line1: '123 Main Street', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' },
  phoneNumber: '+14155550123',
  countryOfResidence: 'US',
};
const ADDRESS = JOHN_DOE.address;
const VALID_CLABE = '032180000118359719';

/** The published document's example account of each type (its `example` values), as [accountType, currency, fields]. */
const PUBLISHED_EXAMPLES: [string, string, Record<string, unknown>][] = [
  ['USD_ACCOUNT', 'USD', { accountNumber: '1234567890', routingNumber: '021000021', bankName: 'Chase Bank', bankAccountType: 'CHECKING' }],
  ['MXN_ACCOUNT', 'MXN', { clabeNumber: '123456789012345678' }],
  ['DKK_ACCOUNT', 'DKK', { iban: 'DK5000400040116243', swiftCode: 'DABADKKK' }],
  ['EUR_ACCOUNT', 'EUR', { iban: 'DE89370400440532013000', swiftCode: 'DEUTDEFF' }],
  ['INR_ACCOUNT', 'INR', { vpa: 'user@upi', accountNumber: '000111222333', ifsc: 'HDFC0001234', rail: 'NEFT', bankName: 'Example Bank' }],
  ['NGN_ACCOUNT', 'NGN', { accountNumber: '0123456789', bankName: 'Example Bank' }],
  ['CAD_ACCOUNT', 'CAD', { bankCode: '001', branchCode: '00012', accountNumber: '1234567' }],
  ['GBP_ACCOUNT', 'GBP', { sortCode: '123456', accountNumber: '12345678' }],
  ['HKD_ACCOUNT', 'HKD', { bankName: 'Example Bank', accountNumber: '123456789012', swiftCode: 'HSBCHKHHHKH' }],
  ['IDR_ACCOUNT', 'IDR', { bankName: 'Bank Central Asia', accountNumber: '1234567890', swiftCode: 'CENAIDJA', phoneNumber: '+6281234567890' }],
  ['MYR_ACCOUNT', 'MYR', { bankName: 'Example Bank', accountNumber: '1234567890', swiftCode: 'MABORUMMYYY' }],
  ['PHP_ACCOUNT', 'PHP', { bankName: 'BDO Unibank', accountNumber: '001234567890' }],
  ['SGD_ACCOUNT', 'SGD', { bankName: 'DBS Bank Ltd', accountNumber: '0123456789', swiftCode: 'DBSSSGSG' }],
  ['THB_ACCOUNT', 'THB', { bankName: 'Example Bank', accountNumber: '1234567890', swiftCode: 'BKKBTHBK' }],
  ['VND_ACCOUNT', 'VND', { bankName: 'Example Bank', accountNumber: '1234567890', swiftCode: 'BFTVVNVX' }],
  ['AED_ACCOUNT', 'AED', { iban: 'AE070331234567890123456', swiftCode: 'EBILAEAD' }],
  ['KES_ACCOUNT', 'KES', { phoneNumber: '+254712345678', provider: 'Example Provider' }],
  ['MWK_ACCOUNT', 'MWK', { phoneNumber: '+1234567890', provider: 'Example Provider' }],
  ['RWF_ACCOUNT', 'RWF', { phoneNumber: '+250781234567', provider: 'Example Provider' }],
  ['TZS_ACCOUNT', 'TZS', { phoneNumber: '+255712345678', provider: 'Example Provider' }],
  ['UGX_ACCOUNT', 'UGX', { phoneNumber: '+1234567890', provider: 'Example Provider' }],
  ['XOF_ACCOUNT', 'XOF', { phoneNumber: '+1234567890', provider: 'Example Provider', region: 'BJ' }],
  ['ZAR_ACCOUNT', 'ZAR', { accountNumber: '1234567890', bankName: 'Example Bank' }],
  ['ZMW_ACCOUNT', 'ZMW', { phoneNumber: '+260971234567', provider: 'Example Provider' }],
  ['BWP_ACCOUNT', 'BWP', { phoneNumber: '+1234567890', provider: 'Example Provider' }],
  ['XAF_ACCOUNT', 'XAF', { phoneNumber: '+1234567890', provider: 'Example Provider', region: 'CM' }],
  ['BDT_ACCOUNT', 'BDT', { accountNumber: '1234567890', bankName: 'Example Bank', branchCode: '11111', swiftCode: 'DEUTDEFF', phoneNumber: '+1234567890' }],
  ['EGP_ACCOUNT', 'EGP', { iban: 'EG380019000500000000263180002', bankName: 'Example Bank', phoneNumber: '+1234567890' }],
  ['GHS_ACCOUNT', 'GHS', { accountNumber: '1234567890', bankName: 'Example Bank', phoneNumber: '+1234567890' }],
  ['GTQ_ACCOUNT', 'GTQ', { accountNumber: '1234567890', bankAccountType: 'CHECKING', bankName: 'Example Bank' }],
  ['HTG_ACCOUNT', 'HTG', { phoneNumber: '+1234567890' }],
  ['JMD_ACCOUNT', 'JMD', { accountNumber: '1234567890', branchCode: '11111', bankAccountType: 'CHECKING', bankName: 'Example Bank' }],
  ['PKR_ACCOUNT', 'PKR', { bankName: 'Example Bank', accountNumber: '1234567890', iban: 'PK36SCBL0000001123456702', phoneNumber: '+1234567890' }],
  ['SLV_ACCOUNT', 'USD', { bankName: 'Banco Cuscatlan', accountNumber: '0123456789', bankAccountType: 'CHECKING' }],
  ['SWIFT_ACCOUNT', 'USD', { country: 'NG', swiftCode: 'DEUTDEFF', bankName: 'Deutsche Bank', accountNumber: '1234567890' }],
  ['CNY_ACCOUNT', 'CNY', { accountNumber: '1234567890', bankName: 'Example Bank', phoneNumber: '+1234567890' }],
  ['BRL_ACCOUNT', 'BRL', { pixKey: 'user@example.com', pixKeyType: 'CPF', taxId: '11111111111' }],
  ['COP_ACCOUNT', 'COP', { accountNumber: '1234567890', bankAccountType: 'CHECKING', bankName: 'Example Bank', phoneNumber: '+1234567890' }],
  ['SPARK_WALLET', 'BTC', { address: 'spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu' }],
  ['SOLANA_WALLET', 'USDC', { address: '4Nd1m6Qkq7RfKuE5vQ9qP9Tn6H94Ueqb4xXHzsAbd8Wg' }],
  ['TRON_WALLET', 'USDT', { address: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL' }],
  ['PLASMA_WALLET', 'USDT', { address: '0xAbCDEF1234567890aBCdEf1234567890ABcDef12' }],
  ['POLYGON_WALLET', 'USDC', { address: '0xAbCDEF1234567890aBCdEf1234567890ABcDef12' }],
  ['BASE_WALLET', 'USDC', { address: '0xAbCDEF1234567890aBCdEf1234567890ABcDef12' }],
  ['ETHEREUM_WALLET', 'USDC', { address: '0xAbCDEF1234567890aBCdEf1234567890ABcDef12' }],
  ['LIGHTNING', 'BTC', { lightningAddress: 'john.doe@lightningwallet.com' }],
  [
    'LIGHTNING',
    'BTC',
    {
      invoice:
        'lnbc15u1p3xnhl2pp5jptserfk3zk4qy42tlucycrfwxhydvlemu9pqr93tuzlv9cc7g3sdqsvfhkcap3xyhx7un8cqzpgxqzjcsp5f8c52y2stc300gl6s4xswtjpc37hrnnr3c9wvtgjfuvqmpm35evq9qyyssqy4lgd8tj637qcjp05rdpxxykjenthxftej7a2zzmwrmrl70fyj9hvj0rewhzj7jfyuwkwcg9g2jpwtk3wkjtwnkdks84hsnu8xps5vsq4gj5hs',
    },
  ],
];

/**
 * Examples that break a format rule (of the seed, or of docs/accounts.md where the seed is silent) beyond a check
 * digit: they stay a 400 in the sandbox too, naming these fields (the deliberate differences in docs/accounts.md).
 */
const REFUSED_EXAMPLES: Record<string, string[]> = {
  // "Example Provider" is no mobile-money provider; +1234567890 is no number of the wallet's country.
  KES_ACCOUNT: ['accountInfo.provider'],
  RWF_ACCOUNT: ['accountInfo.provider'],
  TZS_ACCOUNT: ['accountInfo.provider'],
  ZMW_ACCOUNT: ['accountInfo.provider'],
  MWK_ACCOUNT: ['accountInfo.phoneNumber', 'accountInfo.provider'],
  UGX_ACCOUNT: ['accountInfo.phoneNumber', 'accountInfo.provider'],
  XOF_ACCOUNT: ['accountInfo.phoneNumber', 'accountInfo.provider'],
  XAF_ACCOUNT: ['accountInfo.phoneNumber', 'accountInfo.provider'],
  BWP_ACCOUNT: ['accountInfo.phoneNumber', 'accountInfo.provider'],
  HTG_ACCOUNT: ['accountInfo.phoneNumber'],
  // A BIC of another country than the account's (MABORUMMYYY is Russian; DEUTDEFF German for NG and BD accounts).
  MYR_ACCOUNT: ['accountInfo.swiftCode'],
  SWIFT_ACCOUNT: ['accountInfo.swiftCode'],
  BDT_ACCOUNT: ['accountInfo.swiftCode'],
  // The seed: Colombian banks expect the holder's identity document, which the example beneficiary lacks.
  COP_ACCOUNT: ['accountInfo.beneficiary.documentNumber', 'accountInfo.beneficiary.documentType'],
  // An e-mail address declared as a CPF key.
  BRL_ACCOUNT: ['accountInfo.pixKey'],
};

/** What the published document's `paymentRails` of each answered type is. */
const RAILS: Record<string, string[]> = { USD_ACCOUNT: ['ACH', 'WIRE', 'RTP', 'FEDNOW'], MXN_ACCOUNT: ['SPEI'], EUR_ACCOUNT: ['SEPA', 'SEPA_INSTANT'], GBP_ACCOUNT: ['FASTER_PAYMENTS'], NGN_ACCOUNT: ['BANK_TRANSFER'] };

describe('external accounts: conformance with the published API (real HTTP)', () => {
  let t: TestPlatform;
  let customerId: string;
  const captured: { operation: string; status: number; body: unknown }[] = [];

  beforeAll(async () => {
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.01' });
    expect((await t.call('PATCH', '/config', { body: { supportedCurrencies: [config('USD'), config('MXN')] } })).status).toBe(200);
    customerId = await createCustomerId(t, t.tenant.sandbox, 'Ada Conformance');
  });
  afterAll(async () => {
    if (process.env.EXTERNAL_ACCOUNTS_CAPTURE) writeFileSync(process.env.EXTERNAL_ACCOUNTS_CAPTURE, JSON.stringify(captured, null, 2));
    await t?.stop();
  });

  /** Calls the API and keeps each 2xx answer under the published operation it answers. */
  async function call(operation: string, method: string, path: string, options: { auth?: string; body?: unknown } = {}): Promise<HttpResult<any>> {
    const res = await t.call(method, path, options);
    if (res.status < 300) captured.push({ operation, status: res.status, body: res.body });
    return res;
  }
  const create = (body: Record<string, unknown>, auth = t.tenant.sandbox) => call('createCustomerExternalAccount', 'POST', '/customers/external-accounts', { auth, body: { customerId, ...body } });
  const createPlatform = (body: Record<string, unknown>, auth = t.tenant.sandbox) => call('createPlatformExternalAccount', 'POST', '/platform/external-accounts', { auth, body });
  const fields = (res: HttpResult<any>) => (res.body.details?.errors ?? []).map((e: { field: string }) => e.field).sort();
  const usdInfo = (extra: Record<string, unknown> = {}) => ({ accountType: 'USD_ACCOUNT', accountNumber: '12345678901', routingNumber: '021000021', beneficiary: JOHN_DOE, ...extra });

  describe('USD_ACCOUNT as the published clients send it', () => {
    it('takes an account without bankName and bankAccountType and leaves them unset', async () => {
      const res = await create({ currency: 'USD', accountInfo: usdInfo() });
      expect(res.status).toBe(201);
      expect(res.body.accountInfo).not.toHaveProperty('bankName');
      expect(res.body.accountInfo).not.toHaveProperty('bankAccountType');
      expect(res.body.accountInfo.paymentRails).toEqual(RAILS.USD_ACCOUNT);
    });

    it('takes `countries` and `paymentRails` of the client library, checks them and answers the rails the account supports', async () => {
      const usd = await create({ currency: 'USD', accountInfo: usdInfo({ countries: ['US'], paymentRails: ['ACH'] }) });
      expect(usd.status).toBe(201);
      expect(usd.body.accountInfo.paymentRails).toEqual(RAILS.USD_ACCOUNT);
      expect(usd.body.accountInfo).not.toHaveProperty('countries');
      const mxn = await create({ currency: 'MXN', accountInfo: { accountType: 'MXN_ACCOUNT', clabeNumber: VALID_CLABE, countries: ['MX'], paymentRails: ['SPEI'], beneficiary: JOHN_DOE } });
      expect(mxn.status).toBe(201);
      expect(mxn.body.accountInfo.paymentRails).toEqual(['SPEI']);

      const wrong = await create({ currency: 'USD', accountInfo: usdInfo({ countries: ['MX'], paymentRails: ['ACH', 'SPEI'] }) });
      expect(wrong.status).toBe(400);
      expect(fields(wrong)).toEqual(['accountInfo.countries', 'accountInfo.paymentRails']);
      expect(fields(await create({ currency: 'USD', accountInfo: usdInfo({ paymentRails: 'ACH', countries: [1] }) }))).toEqual(['accountInfo.countries', 'accountInfo.paymentRails']);
    });
  });

  describe('ownershipType and defaultUmaDepositAccount of the published create requests', () => {
    it('keeps ownershipType and answers it on create, get and list; refuses an unknown one', async () => {
      const created = await create({ currency: 'USD', ownershipType: 'FIRST_PARTY', accountInfo: usdInfo({ accountNumber: '12345678911' }) });
      expect(created).toMatchObject({ status: 201, body: { ownershipType: 'FIRST_PARTY' } });
      expect((await t.call('GET', `/customers/external-accounts/${created.body.id}`)).body.ownershipType).toBe('FIRST_PARTY');
      const platform = await createPlatform({ currency: 'USD', ownershipType: 'THIRD_PARTY', accountInfo: usdInfo({ accountNumber: '12345678912' }) });
      expect(platform).toMatchObject({ status: 201, body: { ownershipType: 'THIRD_PARTY' } });
      expect(fields(await create({ currency: 'USD', ownershipType: 'SOMEONE', accountInfo: usdInfo() }))).toEqual(['ownershipType']);
      expect((await create({ currency: 'USD', accountInfo: usdInfo({ accountNumber: '12345678913' }) })).body).not.toHaveProperty('ownershipType');
    });

    it('takes defaultUmaDepositAccount false (the default) and says plainly that true is not served', async () => {
      expect((await create({ currency: 'USD', defaultUmaDepositAccount: false, accountInfo: usdInfo({ accountNumber: '12345678914' }) })).status).toBe(201);
      const before = (await t.call('GET', `/customers/external-accounts?customerId=${encodeURIComponent(customerId)}`)).body.totalCount;
      expect((await create({ currency: 'USD', defaultUmaDepositAccount: true, accountInfo: usdInfo({ accountNumber: '12345678915' }) })).body).toMatchObject({ status: 501, code: 'NOT_IMPLEMENTED' });
      expect((await t.call('GET', `/customers/external-accounts?customerId=${encodeURIComponent(customerId)}`)).body.totalCount).toBe(before); // nothing stored
    });
  });

  describe('check digits: relaxed in the sandbox, enforced in production; formats hold in both', () => {
    const mxn = (clabeNumber: string) => ({ currency: 'MXN', accountInfo: { accountType: 'MXN_ACCOUNT', clabeNumber, beneficiary: JOHN_DOE } });

    it.each(['123456789012345678', '012345678901234567'])('takes the documentation CLABE %s in the sandbox and refuses it in production', async (clabe) => {
      expect((await createPlatform(mxn(clabe))).status).toBe(201);
      const production = await createPlatform(mxn(clabe), t.tenant.production);
      expect(production.status).toBe(400);
      expect(fields(production)).toEqual(['accountInfo.clabeNumber']);
      expect((await createPlatform(mxn(VALID_CLABE), t.tenant.production)).status).toBe(201);
    });

    it('refuses a CLABE of the wrong length or with letters in both modes', async () => {
      for (const auth of [t.tenant.sandbox, t.tenant.production]) {
        expect(fields(await createPlatform(mxn('12345678901234567'), auth))).toEqual(['accountInfo.clabeNumber']);
        expect(fields(await createPlatform(mxn('12345678901234567A'), auth))).toEqual(['accountInfo.clabeNumber']);
      }
    });

    it.each([
      ['an ABA routing number', 'USD', usdInfo({ routingNumber: '123456789' }), 'accountInfo.routingNumber'],
      ['an IBAN', 'DKK', { accountType: 'DKK_ACCOUNT', iban: 'DK5000400040116243', beneficiary: JOHN_DOE }, 'accountInfo.iban'],
      ['a CPF', 'BRL', { accountType: 'BRL_ACCOUNT', pixKey: 'user@example.com', pixKeyType: 'EMAIL', taxId: '11111111111', beneficiary: JOHN_DOE }, 'accountInfo.taxId'],
      ['an EIP-55 address', 'USDC', { accountType: 'ETHEREUM_WALLET', address: '0xAbCDEF1234567890aBCdEf1234567890ABcDef12' }, 'accountInfo.address'],
      ['a bech32m address', 'BTC', { accountType: 'SPARK_WALLET', address: 'spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu' }, 'accountInfo.address'],
      ['a base58check address', 'USDT', { accountType: 'TRON_WALLET', address: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeM' }, 'accountInfo.address'],
    ])('applies the same rule to %s', async (_, currency, accountInfo, field) => {
      expect((await createPlatform({ currency, accountInfo })).status).toBe(201);
      expect(fields(await createPlatform({ currency, accountInfo }, t.tenant.production))).toEqual([field]);
    });
  });

  describe('the published example of every account type', () => {
    it.each(PUBLISHED_EXAMPLES.map(([type, currency, info], i) => [`${type} #${i}`, currency, { accountType: type, ...info }] as const))(
      '%s',
      async (_, currency, example) => {
        const wallet = /WALLET|LIGHTNING/.test(String(example.accountType));
        const res = await create({ currency, accountInfo: wallet ? example : { ...example, beneficiary: JOHN_DOE } });
        const refused = REFUSED_EXAMPLES[String(example.accountType)];
        if (refused) {
          expect({ status: res.status, fields: fields(res) }).toEqual({ status: 400, fields: refused });
          return;
        }
        expect({ status: res.status, body: res.body }).toMatchObject({ status: 201, body: { status: 'PENDING', currency, accountInfo: { accountType: example.accountType } } });
        if (!wallet) {
          expect(res.body.accountInfo.beneficiary).toMatchObject({ beneficiaryType: 'INDIVIDUAL', fullName: 'John Doe' });
          expect(res.body.accountInfo.paymentRails).toEqual(RAILS[String(example.accountType)] ?? expect.arrayContaining([expect.any(String)]));
        }
      },
    );

    it('takes the request examples of both create operations, platformAccountId inside accountInfo included', async () => {
      const usBankAccount = {
        currency: 'USD',
        accountInfo: { ...usdInfo({ routingNumber: '123456789', bankAccountType: 'CHECKING', bankName: 'Chase Bank', platformAccountId: 'ext_acc_123456' }), beneficiary: { ...JOHN_DOE, phoneNumber: undefined, countryOfResidence: undefined } },
      };
      const customer = await create(usBankAccount);
      expect(customer.status).toBe(201);
      expect(customer.body.platformAccountId).toBe('ext_acc_123456');
      expect(customer.body.accountInfo).not.toHaveProperty('platformAccountId');
      const platform = await createPlatform(usBankAccount);
      expect(platform.status).toBe(201);
      expect(platform.body.platformAccountId).toBe('ext_acc_123456');
      const conflicting = await createPlatform({ ...usBankAccount, platformAccountId: 'other' });
      expect(fields(conflicting)).toEqual(['accountInfo.platformAccountId']);
      const spark = await createPlatform({ currency: 'BTC', accountInfo: { accountType: 'SPARK_WALLET', address: 'spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu' } });
      expect(spark.status).toBe(201);
    });
  });

  describe('business beneficiaries: the seed form and the published flat form', () => {
    const business = { legalName: 'Acme Corp', taxId: '12-3456789', registrationNumber: 'REG-001' };
    const expected = { beneficiaryType: 'BUSINESS', businessInfo: business, ...business, address: ADDRESS };

    it('takes either form, stores the seed form, and answers the seed form with the published fields beside it', async () => {
      const flat = await createPlatform({ currency: 'USD', accountInfo: usdInfo({ beneficiary: { beneficiaryType: 'BUSINESS', ...business, address: ADDRESS } }) });
      expect(flat.status).toBe(201);
      expect(flat.body.accountInfo.beneficiary).toEqual(expected);
      const seed = await createPlatform({ currency: 'USD', accountInfo: usdInfo({ beneficiary: { beneficiaryType: 'BUSINESS', businessInfo: business, address: ADDRESS } }) });
      expect(seed.status).toBe(201);
      expect(seed.body.accountInfo.beneficiary).toEqual(expected);
      expect((await call('getCustomerExternalAccountById', 'GET', `/customers/external-accounts/${flat.body.id}`)).body.accountInfo.beneficiary).toEqual(expected);

      const [event] = await t.platform.accounts.host.dataSource.query(`SELECT data FROM accounts.events WHERE stream_id = $1 AND type = 'ExternalAccountCreated.v1'`, [flat.body.id]);
      expect(event.data.accountInfo.beneficiary).toEqual({ beneficiaryType: 'BUSINESS', businessInfo: business, address: ADDRESS });
    });

    it('refuses a mix of both forms and names what a flat business misses', async () => {
      const mixed = await createPlatform({ currency: 'USD', accountInfo: usdInfo({ beneficiary: { beneficiaryType: 'BUSINESS', businessInfo: business, legalName: 'Acme Corp', address: ADDRESS } }) });
      expect(fields(mixed)).toEqual(['accountInfo.beneficiary.legalName']);
      const nameless = await createPlatform({ currency: 'USD', accountInfo: usdInfo({ beneficiary: { beneficiaryType: 'BUSINESS', taxId: '1', address: ADDRESS } }) });
      expect(fields(nameless)).toEqual(['accountInfo.beneficiary.legalName']);
    });
  });

  describe('the published Address and the platform account routes', () => {
    it('takes a beneficiary address without city (the published Address requires line1, postalCode, country) outside USD, GBP and EUR', async () => {
      const { city: _city, ...cityless } = ADDRESS;
      const res = await create({ currency: 'MXN', accountInfo: { accountType: 'MXN_ACCOUNT', clabeNumber: VALID_CLABE, beneficiary: { ...JOHN_DOE, address: cityless } } });
      expect(res.status).toBe(201);
      expect(res.body.accountInfo.beneficiary.address).toEqual(cityless);
      // The seed spells out city for USD, GBP and EUR beneficiaries: there it stays required.
      const usd = await create({ currency: 'USD', accountInfo: usdInfo({ beneficiary: { ...JOHN_DOE, address: cityless } }) });
      expect(fields(usd)).toEqual(['accountInfo.beneficiary.address.city']);
    });

    it('gets and deletes a platform account by id (getPlatformExternalAccountById, deletePlatformExternalAccountById)', async () => {
      const created = await createPlatform({ currency: 'USD', accountInfo: usdInfo() });
      const got = await call('getPlatformExternalAccountById', 'GET', `/platform/external-accounts/${created.body.id}`);
      expect(got.status).toBe(200);
      expect(got.body.accountInfo.paymentRails).toEqual(RAILS.USD_ACCOUNT);
      expect((await call('deletePlatformExternalAccountById', 'DELETE', `/platform/external-accounts/${created.body.id}`)).status).toBe(204);
    });
  });

  describe('list filters of the published document', () => {
    it('filters both lists by currency, validated like every other filter', async () => {
      await createPlatform({ currency: 'MXN', accountInfo: { accountType: 'MXN_ACCOUNT', clabeNumber: VALID_CLABE, beneficiary: JOHN_DOE } });
      await createPlatform({ currency: 'USD', accountInfo: usdInfo() });
      const platformMxn = await call('listPlatformExternalAccounts', 'GET', '/platform/external-accounts?currency=MXN&limit=100');
      expect(platformMxn.status).toBe(200);
      expect(platformMxn.body.data.length).toBeGreaterThan(0);
      expect(platformMxn.body.data.every((a: { currency: string }) => a.currency === 'MXN')).toBe(true);
      expect(platformMxn.body.totalCount).toBe(platformMxn.body.data.length);

      await create({ currency: 'USD', accountInfo: usdInfo() });
      const customerUsd = await call('listCustomerExternalAccounts', 'GET', `/customers/external-accounts?currency=USD&customerId=${encodeURIComponent(customerId)}&limit=100`);
      expect(customerUsd.status).toBe(200);
      expect(customerUsd.body.data.length).toBeGreaterThan(0);
      expect(customerUsd.body.data.every((a: { currency: string; customerId: string }) => a.currency === 'USD' && a.customerId === customerId)).toBe(true);
      expect((await t.call('GET', '/customers/external-accounts?currency=ARS')).body.totalCount).toBe(0);

      for (const path of ['/platform/external-accounts?currency=usd', '/customers/external-accounts?currency=US%24']) {
        const bad = await t.call('GET', path);
        expect({ status: bad.status, code: bad.body.code, fields: fields(bad) }).toEqual({ status: 400, code: 'INVALID_INPUT', fields: ['currency'] });
      }
    });
  });

  describe('receiver lookup and quotes to the account', () => {
    const lookup = (id: string, query = '', auth = t.tenant.sandbox) => call('lookupExternalAccount', 'GET', `/receiver/external-account/${id}${query}`, { auth });
    const mxnAccount = async (auth = t.tenant.sandbox) => {
      const owner = await createCustomerId(t, auth);
      const res = await t.call('POST', '/customers/external-accounts', { auth, body: { customerId: owner, currency: 'MXN', accountInfo: { accountType: 'MXN_ACCOUNT', clabeNumber: VALID_CLABE, beneficiary: JOHN_DOE } } });
      await untilStatus(t, auth, res.body.id, 'ACTIVE');
      return res.body.id as string;
    };

    it('lists the currency the account receives as a Currency object, at receiving units per sending unit', async () => {
      const id = await mxnAccount();
      const res = await lookup(id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        supportedCurrencies: [{ currency: { code: 'MXN', name: expect.any(String), symbol: expect.any(String), decimals: 2 }, estimatedExchangeRate: expect.any(Number), min: 100, max: 5_000_000 }],
        lookupId: expect.stringMatching(/^Lookup:[0-9a-f-]{36}$/),
        accountId: id,
      });
      // The platform's first sending currency is USD: about 17.25 MXN per USD (quoting's sandbox rates, ±0.5%).
      expect(Math.abs(res.body.supportedCurrencies[0].estimatedExchangeRate / 17.25 - 1)).toBeLessThanOrEqual(0.005 + 1e-9);

      // A sender holding MXN only sends MXN: rate 1.
      const mxnSender = (await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Peso Sender', currencies: ['MXN'] } })).body.id;
      await eventually(async () => (await t.call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(mxnSender)}`)).body.data?.length > 0);
      expect((await lookup(id, `?customerId=${encodeURIComponent(mxnSender)}`)).body.supportedCurrencies[0].estimatedExchangeRate).toBe(1);
    });

    it('quotes to the account with a lookupId issued for it, and refuses one issued for another account or platform', async () => {
      const id = await mxnAccount();
      const other = await mxnAccount();
      const source = await usdAccount(t, t.tenant.sandbox);
      const quote = (lookupId: string, accountId = id) =>
        call('createQuote', 'POST', '/quotes', { body: { lookupId, source: { sourceType: 'ACCOUNT', accountId: source }, destination: { destinationType: 'ACCOUNT', accountId }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000 } });

      const own = (await lookup(id)).body.lookupId;
      const res = await quote(own);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ destination: { destinationType: 'ACCOUNT', accountId: id }, receivingCurrency: { code: 'MXN' } });

      const forOther = (await lookup(other)).body.lookupId;
      expect(fields(await quote(forOther))).toEqual(['lookupId']);
      const uma = (await t.call('GET', `/receiver/uma/${encodeURIComponent('$success.mxn@sandbox.uma.money')}`)).body.lookupId;
      expect(fields(await quote(uma))).toEqual(['lookupId']);
      expect(fields(await quote('Lookup:00000000-0000-7000-8000-000000000000'))).toEqual(['lookupId']);

      const tenant = await t.createTenant();
      await t.call('PATCH', '/config', { auth: tenant.sandbox, body: { supportedCurrencies: [config('USD'), config('MXN')] } });
      const theirs = (await lookup(await mxnAccount(tenant.sandbox), '', tenant.sandbox)).body.lookupId;
      expect(theirs).toMatch(/^Lookup:/);
      expect(fields(await quote(theirs))).toEqual(['lookupId']);
    });
  });
});
