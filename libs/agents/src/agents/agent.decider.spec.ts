import { given } from '@payments/eventsourcing';
import type { AgentPolicy } from '@payments/contracts';
import { agentDecider } from './agent.decider';
import { AgentEvent, AgentTerms } from './agent.events';
import { toAgent } from './agent.view';
import { ExistingAgent } from './agent.state';

const day1 = '2026-11-24T10:00:00.000Z';
const day1Later = '2026-11-24T23:59:59.000Z';
const day2 = '2026-11-25T00:00:01.000Z';
const nextMonth = '2026-12-01T00:00:00.000Z';
const policy: AgentPolicy = {
  permissions: ['CREATE_TRANSFERS'],
  defaultExecutionMode: 'AUTO',
  spendingLimits: { currency: 'USD', perTransactionLimit: 1_000, dailyLimit: 2_500, dailyTransactionLimit: 3, monthlyLimit: 4_000 },
};
const terms: AgentTerms = { agentId: 'Agent:1', platformId: 'Platform:1', mode: 'SANDBOX', customerId: 'Customer:1', platformCustomerId: 'c-1', name: 'Bot', policy, createdAt: day1 };
const created: AgentEvent = { type: 'AgentCreated.v1', data: terms };
const reserve = (actionId: string, amount: number, now = day1, perTransactionLimit = 1_000) => ({ type: 'ReserveSpend' as const, actionId, amount, perTransactionLimit, now });
const reserved = (actionId: string, amount: number, at = day1): AgentEvent => ({ type: 'AgentSpendReserved.v1', data: { actionId, amount, day: at.slice(0, 10), month: at.slice(0, 7), at } });

describe('agent decider: the allowance', () => {
  it('allows exactly the per-transaction limit and refuses one more (an account rule may set its own)', () => {
    given(agentDecider, [created]).when(reserve('a1', 1_000)).then([reserved('a1', 1_000)]);
    given(agentDecider, [created]).when(reserve('a1', 1_001)).thenFails('LIMIT_EXCEEDED');
    given(agentDecider, [created]).when(reserve('a1', 1_500, day1, 2_000)).then([reserved('a1', 1_500)]);
  });

  it('counts the daily amount and count, and the monthly amount; the day and month restart them', () => {
    const two = [created, reserved('a1', 1_000), reserved('a2', 1_000)];
    given(agentDecider, two).when(reserve('a3', 500, day1Later)).then([reserved('a3', 500, day1Later)]);
    given(agentDecider, two).when(reserve('a3', 501, day1Later)).thenFails('LIMIT_EXCEEDED'); // 2,501 > 2,500 a day
    const three = [...two, reserved('a3', 10)];
    given(agentDecider, three).when(reserve('a4', 10)).thenFails('LIMIT_EXCEEDED'); // a fourth transaction in a day
    given(agentDecider, three).when(reserve('a4', 10, day2)).then([reserved('a4', 10, day2)]); // a new day
    const month = [created, reserved('a1', 1_000), reserved('a2', 1_000, day2), reserved('a3', 1_000, '2026-11-26T10:00:00.000Z'), reserved('a4', 900, '2026-11-27T10:00:00.000Z')];
    given(agentDecider, month).when(reserve('a5', 101, '2026-11-28T10:00:00.000Z')).thenFails('LIMIT_EXCEEDED'); // 4,001 > 4,000 a month
    given(agentDecider, month).when(reserve('a5', 1_000, nextMonth)).then([reserved('a5', 1_000, nextMonth)]);
  });

  it('decides one request after the other: of two that each fit alone, the second does not fit what is left', () => {
    const one = [created, reserved('a1', 1_000), reserved('a2', 1_000)];
    const first = given(agentDecider, one).when(reserve('a3', 400)).then([reserved('a3', 400)]);
    given(agentDecider, [...one, ...first]).when(reserve('a4', 400)).thenFails('LIMIT_EXCEEDED');
  });

  it('gives a released amount back, once; a repeated reservation changes nothing', () => {
    const full = [created, reserved('a1', 1_000), reserved('a2', 1_000), reserved('a3', 500)];
    given(agentDecider, full).when(reserve('a3', 500)).then([]);
    const released = given(agentDecider, full).when({ type: 'ReleaseSpend', actionId: 'a2', now: day1 }).then([{ type: 'AgentSpendReleased.v1', data: { actionId: 'a2', at: day1 } }]);
    given(agentDecider, [...full, ...released]).when({ type: 'ReleaseSpend', actionId: 'a2', now: day1 }).then([]);
    given(agentDecider, [...full, ...released]).when(reserve('a4', 1_000)).then([reserved('a4', 1_000)]);
  });

  it('shows the usage of today and this month, and when it restarts', () => {
    const state = given(agentDecider, [created, reserved('a1', 700), reserved('a2', 200, day2)]).state as ExistingAgent;
    expect(toAgent(state, day2).usage).toEqual({ dailyTransactionCount: 1, dailySpend: 200, dailyResetDate: '2026-11-26', monthlySpend: 900, monthlyResetMonth: '2026-12' });
  });

  it('a paused agent reserves nothing; a deleted one is not found', () => {
    given(agentDecider, [created, { type: 'AgentPaused.v1', data: { at: day1 } }]).when(reserve('a1', 10)).thenFails('FORBIDDEN');
    const deleted: AgentEvent = { type: 'AgentDeleted.v1', data: { agentId: 'Agent:1', platformId: 'Platform:1', mode: 'SANDBOX', customerId: 'Customer:1', at: day1 } };
    given(agentDecider, [created, deleted]).when(reserve('a1', 10)).thenFails('AGENT_NOT_FOUND');
  });
});

describe('agent decider: device codes', () => {
  const issued = (codeHash: string, expiresAt = day2): AgentEvent => ({ type: 'AgentDeviceCodeIssued.v1', data: { codeHash, expiresAt, at: day1 } });
  const redeem = (codeHash: string, now = day1) => ({ type: 'RedeemDeviceCode' as const, codeHash, tokenHash: 't', tokenId: 'AgentAccessToken:1', tokenExpiresAt: day2, now });

  it('redeems a fresh code once; a newer code replaces unredeemed ones; an expired code is refused', () => {
    const events = given(agentDecider, [created, issued('c1')]).when(redeem('c1')).then([{ type: 'AgentConnected.v1', data: { codeHash: 'c1', tokenHash: 't', tokenId: 'AgentAccessToken:1', expiresAt: day2, at: day1 } }]);
    given(agentDecider, [created, issued('c1'), ...events]).when(redeem('c1')).thenFails('DEVICE_CODE_INVALID');
    given(agentDecider, [created, issued('c1'), issued('c2')]).when(redeem('c1')).thenFails('DEVICE_CODE_INVALID');
    given(agentDecider, [created, issued('c1'), issued('c2')]).when(redeem('c2')).then([{ type: 'AgentConnected.v1', data: { codeHash: 'c2', tokenHash: 't', tokenId: 'AgentAccessToken:1', expiresAt: day2, at: day1 } }]);
    given(agentDecider, [created, issued('c1', day1)]).when(redeem('c1', day1Later)).thenFails('DEVICE_CODE_INVALID');
    given(agentDecider, [created]).when(redeem('nope')).thenFails('DEVICE_CODE_NOT_FOUND');
  });

  it('tells a redeemed code from one replaced before it was redeemed (GET /agents/device-codes/{code}/status)', () => {
    const connected: AgentEvent = { type: 'AgentConnected.v1', data: { codeHash: 'c2', tokenHash: 't', tokenId: 'AgentAccessToken:1', expiresAt: day2, at: day1 } };
    const state = given(agentDecider, [created, issued('c1'), issued('c2'), connected]).state as ExistingAgent;
    expect(state.deviceCodes.map((c) => [c.codeHash, c.used, c.redeemed === true])).toEqual([
      ['c1', true, false],
      ['c2', true, true],
    ]);
  });
});
