import { fileLocationOf, parseRailsConfig } from './rails-config';

const S3 = { endpoint: 'https://minio.bank.example:9000', region: 'us-east-1', bucket: 'bank-files', prefix: 'ach/outbox', forcePathStyle: true, accessKeyIdEnv: 'ACH_S3_KEY_ID', secretAccessKeyEnv: 'ACH_S3_SECRET' };
const nacha = (files: Record<string, unknown>) => ({
  connectors: [
    {
      id: 'bank-ach',
      kind: 'NACHA',
      routes: [{ currency: 'USD', paymentRail: 'ACH', directions: ['PAYOUT'] }],
      ...files,
      nacha: { immediateDestination: '091000019', immediateDestinationName: 'BANK', immediateOrigin: '1234567890', immediateOriginName: 'US', companyName: 'US', companyIdentification: '1234567890', originatingDfi: '09100001' },
    },
  ],
});

describe('rails configuration: where a file connector keeps its files', () => {
  it('limits what the inbox reads: 20 MiB unless configured, a bad limit refused naming the field', () => {
    const dirs = { outboxDirectory: '/var/out', inboxDirectory: '/var/in' };
    expect(parseRailsConfig(nacha(dirs)).connectors[0].inboxMaxBytes).toBe(20 * 1024 * 1024);
    expect(parseRailsConfig(nacha({ ...dirs, inboxMaxBytes: 65_536 })).connectors[0].inboxMaxBytes).toBe(65_536);
    for (const bad of [0, 12.5, '20MB', 2 ** 31]) {
      expect(() => parseRailsConfig(nacha({ ...dirs, inboxMaxBytes: bad }))).toThrow('connectors[0]: inboxMaxBytes must be an integer from 1024 to 1073741824');
    }
  });

  it('takes directories as before', () => {
    const [c] = parseRailsConfig(nacha({ outboxDirectory: '/var/out', inboxDirectory: '/var/in' })).connectors;
    expect(c).toMatchObject({ outboxDirectory: '/var/out', inboxDirectory: '/var/in' });
    expect(fileLocationOf(c, 'outbox')).toEqual({ directory: '/var/out' });
  });

  it('takes a bucket and prefix for either side, defaulting forcePathStyle to false and keeping no credential', () => {
    const { forcePathStyle: _, endpoint: __, ...aws } = S3;
    const [c] = parseRailsConfig(nacha({ outbox: { s3: S3 }, inbox: { s3: { ...aws, prefix: 'ach/inbox' } } })).connectors;
    expect(fileLocationOf(c, 'outbox')).toEqual({ s3: S3 });
    expect(fileLocationOf(c, 'inbox')).toEqual({ s3: { ...aws, prefix: 'ach/inbox', forcePathStyle: false } });
    expect(c.outboxDirectory).toBeUndefined();
    const [mixed] = parseRailsConfig(nacha({ outbox: { s3: S3 }, inboxDirectory: '/var/in' })).connectors;
    expect(fileLocationOf(mixed, 'inbox')).toEqual({ directory: '/var/in' });
  });

  it.each([
    [{ outboxDirectory: '/o', outbox: { s3: S3 }, inboxDirectory: '/i' }, 'connectors[0]: give outboxDirectory or outbox, not both'],
    [{ inboxDirectory: '/i' }, 'connectors[0]: outboxDirectory must be a non-empty string'],
    [{ outbox: { directory: '/o' }, inboxDirectory: '/i' }, 'connectors[0].outbox: must be { "s3": { … } }'],
    [{ outbox: { s3: { ...S3, bucket: 'Bad_Bucket' } }, inboxDirectory: '/i' }, 'connectors[0].outbox.s3: bucket "Bad_Bucket" must match'],
    [{ outbox: { s3: { ...S3, region: undefined } }, inboxDirectory: '/i' }, 'connectors[0].outbox.s3: region must be a non-empty string'],
    [{ outbox: { s3: { ...S3, endpoint: 'minio:9000' } }, inboxDirectory: '/i' }, 'connectors[0].outbox.s3: endpoint "minio:9000" must match'],
    [{ outbox: { s3: { ...S3, prefix: '/ach/../x' } }, inboxDirectory: '/i' }, 'connectors[0].outbox.s3: prefix "/ach/../x" must be segments'],
    [{ outbox: { s3: { ...S3, prefix: undefined } }, inboxDirectory: '/i' }, 'connectors[0].outbox.s3: prefix must be a string'],
    [{ outbox: { s3: { ...S3, forcePathStyle: 'yes' } }, inboxDirectory: '/i' }, 'connectors[0].outbox.s3: forcePathStyle must be true or false'],
    [{ outbox: { s3: { ...S3, secretAccessKeyEnv: 'my secret' } }, inboxDirectory: '/i' }, 'connectors[0].outbox.s3: secretAccessKeyEnv "my secret" must match'],
    [{ outbox: { s3: { ...S3, secretAccessKey: 'abc' } }, inboxDirectory: '/i' }, 'connectors[0].outbox.s3: unknown field secretAccessKey'],
    [{ outbox: { s3: S3 }, inbox: { s3: { ...S3, prefix: 'ach/outbox/returns' } } }, 'connectors[0].inbox.s3: prefix must not be (inside) the outbox'],
    [{ outbox: { s3: S3 }, inbox: { s3: { ...S3, prefix: '' } } }, 'connectors[0].inbox.s3: prefix must not be (inside) the outbox'],
  ])('refuses %j, naming the field', (files, message) => {
    expect(() => parseRailsConfig(nacha(files))).toThrow(`rails configuration: ${message}`);
  });

  it('lets outbox and inbox share a bucket under prefixes apart', () => {
    expect(() => parseRailsConfig(nacha({ outbox: { s3: S3 }, inbox: { s3: { ...S3, prefix: 'ach/outbox-returns' } } }))).not.toThrow();
  });
});
