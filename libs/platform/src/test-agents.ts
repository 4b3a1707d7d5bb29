import { SandboxRateSource, RATE_WINDOW_MS } from '@payments/quoting';
import type { HttpResult } from '@payments/testing';
import type { TestPlatform } from './test-platform';

/**
 * Agents through the gateway: a platform creates an agent for one of its customers under a policy, the agent software
 * redeems the device code (no credentials) and calls Agent Operations with `Authorization: Bearer <token>`.
 * `t.call` sends `auth` as the Authorization header (the tenant's Basic credentials when left out; none when '').
 */

export const ALL_PERMISSIONS = ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS'] as const;

export type Policy = Record<string, any>;

/** A policy that lets everything through (every permission, AUTO, generous limits), with `overrides` on top. */
export function agentPolicy(overrides: Policy = {}, limits: Record<string, unknown> = {}): Policy {
  return {
    permissions: [...ALL_PERMISSIONS],
    defaultExecutionMode: 'AUTO',
    ...overrides,
    spendingLimits: { currency: 'USD', perTransactionLimit: 1_000_000, dailyLimit: null, monthlyLimit: null, ...limits },
  };
}

export const bearer = (token: string) => `Bearer ${token}`;

/** An agent the platform created and its software connected: its id, its token, and a caller that uses the token. */
export interface TestAgent {
  id: string;
  token: string;
  customerId: string;
  /** The agent as POST /agents answered it. */
  created: Record<string, any>;
  call<T = any>(method: string, path: string, options?: { body?: unknown; headers?: Record<string, string> }): Promise<HttpResult<T>>;
}

/** POST /agents as the platform (`auth`: its Basic header, the bootstrap tenant's sandbox by default). */
export function createAgent(t: TestPlatform, customerId: string, policy: Policy, options: { name?: string; auth?: string } = {}): Promise<HttpResult> {
  return t.call('POST', '/agents', { auth: options.auth ?? t.tenant.sandbox, body: { name: options.name ?? 'Test agent', customerId, policy } });
}

/** POST /agents/device-codes/{code}/redeem with no Authorization header at all. */
export function redeem(t: TestPlatform, code: string): Promise<HttpResult> {
  return t.call('POST', `/agents/device-codes/${encodeURIComponent(code)}/redeem`, { auth: '' });
}

/** A call of Agent Operations with this token. */
export function asAgent(t: TestPlatform, token: string): TestAgent['call'] {
  return (method, path, options = {}) => t.call(method, path, { ...options, auth: bearer(token) });
}

/** Creates the agent for the customer under the policy and redeems its device code. */
export async function connectedAgent(t: TestPlatform, customerId: string, policy: Policy, options: { name?: string; auth?: string } = {}): Promise<TestAgent> {
  const created = await createAgent(t, customerId, policy, options);
  if (created.status !== 201) throw new Error(`agent: ${created.status} ${JSON.stringify(created.body)}`);
  const redeemed = await redeem(t, created.body.deviceCode.code);
  if (redeemed.status !== 200) throw new Error(`redeem: ${redeemed.status} ${JSON.stringify(redeemed.body)}`);
  const token = redeemed.body.accessToken as string;
  return { id: created.body.agent.id, token, customerId, created: created.body, call: asAgent(t, token) };
}

/** The body of a same-currency transfer (POST /agents/me/transfer-out or /transfer-in). */
export const transfer = (source: string, destination: string, amount: number) => ({ source: { accountId: source }, destination: { accountId: destination }, amount });

/** The body of a quote between two accounts, the sending amount locked. */
export const accountQuote = (source: string, destination: string, amount: number, extra: Record<string, unknown> = {}) => ({
  source: { sourceType: 'ACCOUNT', accountId: source },
  destination: { destinationType: 'ACCOUNT', accountId: destination },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: amount,
  ...extra,
});

/** The agent's usage as GET /agents/me shows it. */
export async function usageOf(agent: TestAgent): Promise<Record<string, number>> {
  const me = await agent.call('GET', '/agents/me');
  if (me.status !== 200) throw new Error(`/agents/me: ${me.status} ${JSON.stringify(me.body)}`);
  return me.body.usage;
}

/** The sandbox mid rate (units of `to` per unit of `from`) the quoting service uses now. */
export function midRateNow(from: string, to: string): number {
  return Number(new SandboxRateSource().rate(from, to, new Date().toISOString())!.midRate);
}

/**
 * An amount of `from` (smallest unit, 2 decimals) in `to` (2 decimals) as the agents service converts it for the
 * limits: at the mid rate of the moment, rounded up.
 */
export function convertedUp(amount: number, from: string, to: string): number {
  return Math.ceil((amount / 100) * midRateNow(from, to) * 100);
}

/**
 * Sandbox rates move every 5-minute window: a test that needs the rate of "now" on both sides of a call starts well
 * inside a window (waits for the next one when fewer than `marginMs` are left).
 */
export async function awayFromRateWindowEdge(marginMs = 5_000): Promise<void> {
  const left = RATE_WINDOW_MS - (Date.now() % RATE_WINDOW_MS);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
