import { FailedAttempts } from './failed-attempts';

describe('FailedAttempts', () => {
  const budgets = { credential: { failures: 2, perMs: 60_000 }, source: { failures: 3, perMs: 60_000 }, global: { failures: 5, perMs: 60_000 } };
  const keys = (credential: string, source: string) => ({ credential, source });

  it('refuses a credential after its failures, with the wait until one more fits; a success counts nothing', () => {
    const attempts = new FailedAttempts(budgets);
    expect(attempts.retryAfter(keys('A', '1'), 0)).toBe(0);
    attempts.fail(keys('A', '1'), 0);
    expect(attempts.retryAfter(keys('A', '1'), 0)).toBe(0);
    attempts.fail(keys('A', '1'), 0);
    expect(attempts.retryAfter(keys('A', '1'), 0)).toBe(30); // one failure leaks away every 30 s
    expect(attempts.retryAfter(keys('A', '1'), 30_000)).toBe(0);
    expect(attempts.retryAfter(keys('B', '2'), 0)).toBe(0); // another code from another address
  });

  it('refuses a source after its failures whatever the code, and everyone once the global budget is spent', () => {
    const attempts = new FailedAttempts(budgets);
    for (const code of ['A', 'B', 'C']) attempts.fail(keys(code, '1'), 0);
    expect(attempts.retryAfter(keys('D', '1'), 0)).toBe(20);
    expect(attempts.retryAfter(keys('D', '2'), 0)).toBe(0);
    for (const code of ['E', 'F']) attempts.fail(keys(code, '2'), 0);
    expect(attempts.retryAfter(keys('G', '3'), 0)).toBe(12); // five failures from anywhere: the global budget
  });
});
