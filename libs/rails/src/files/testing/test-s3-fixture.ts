import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { eventually, freePort } from '@payments/testing';

/** The server's source: Node 24 runs it as it is (types stripped), so no build is needed first. */
const SERVER = resolve(__dirname, 'test-s3-server.ts');

/** Test fixture: test-s3-server.ts as its own process on loopback, with its bucket and the credentials it verifies. */
export interface TestS3Server {
  endpoint: string;
  region: string;
  bucket: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** The server's control API (faults, objects put by another party, request counts). */
  control(method: string, path: string, body?: Buffer | string, headers?: Record<string, string>): Promise<{ status: number; body: Buffer }>;
  stop(): Promise<void>;
}

export async function startS3TestServer(options: { pageSize?: number } = {}): Promise<TestS3Server> {
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const bucket = 'bank-files';
  const region = 'eu-central-1';
  const credentials = { accessKeyId: `AKTEST${randomBytes(6).toString('hex').toUpperCase()}`, secretAccessKey: randomBytes(24).toString('base64') };
  const child: ChildProcess = spawn(process.execPath, [SERVER], {
    env: {
      PATH: process.env.PATH,
      S3_TEST_PORT: String(port),
      S3_TEST_BUCKET: bucket,
      S3_TEST_REGION: region,
      S3_TEST_ACCESS_KEY_ID: credentials.accessKeyId,
      S3_TEST_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      S3_PAGE_SIZE: String(options.pageSize ?? 1000),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  await eventually(async () => output.includes('listening on') || (child.exitCode !== null && Promise.reject(new Error(output))), { what: 'the S3 test server to listen' });
  return {
    endpoint,
    region,
    bucket,
    credentials,
    control: async (method, path, body, headers) => {
      const answer = await fetch(`${endpoint}/_control${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
      return { status: answer.status, body: Buffer.from(await answer.arrayBuffer()) };
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
