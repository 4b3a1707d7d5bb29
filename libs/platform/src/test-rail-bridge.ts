import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { eventually, freePort, http, HttpResult } from '@payments/testing';

const BRIDGE_MAIN = resolve(__dirname, '../../../dist/apps/rail-bridge-reference/src/main.js');

/** Test fixture: the reference rail bridge (apps/rail-bridge-reference) as its own process, on loopback. */
export interface TestRailBridge {
  url: string;
  apiKey: string;
  /** The Standard Webhooks secret its callbacks are signed with (`whsec_…`). */
  secret: string;
  /** The control API (faults, received orders, settle/return a payment). */
  control(method: string, path: string, body?: unknown): Promise<HttpResult>;
  stop(): Promise<void>;
}

export async function startRailBridge(settleAfterMs = 300): Promise<TestRailBridge> {
  if (!existsSync(BRIDGE_MAIN)) throw new Error(`${BRIDGE_MAIN} is missing: run npm run build first (npm test does it in pretest)`);
  const apiKey = randomBytes(24).toString('hex');
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [BRIDGE_MAIN], {
    env: { PATH: process.env.PATH, PORT: String(port), HOST: '127.0.0.1', BRIDGE_API_KEY: apiKey, BRIDGE_CALLBACK_SECRET: secret, BRIDGE_SETTLE_AFTER_MS: String(settleAfterMs) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  await eventually(async () => output.includes('listening on') || (child.exitCode !== null && Promise.reject(new Error(output))), { what: 'the rail bridge to listen' });
  return {
    url,
    apiKey,
    secret,
    control: (method, path, body) => http(method, `${url}${path}`, { auth: `Bearer ${apiKey}`, ...(body !== undefined ? { body } : {}) }),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
