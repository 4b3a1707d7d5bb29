import { credentialPathKeys } from './failed-attempts';
import { FailureWindows } from './failure-windows';

describe('FailureWindows', () => {
  const limits = { credential: { failures: 2, windowMs: 60_000 }, source: { failures: 3, windowMs: 60_000 }, global: { failures: 5, windowMs: 60_000 } };
  const keys = (credential: string, source: string) => credentialPathKeys(credential, source, limits);

  it('holds a credential back after its failures until its window ends; a success counts nothing', () => {
    const windows = new FailureWindows();
    expect(windows.retryAfter(keys('A', '1'), 0)).toBe(0);
    windows.fail(keys('A', '1'), 0);
    expect(windows.retryAfter(keys('A', '1'), 10_000)).toBe(0);
    windows.fail(keys('A', '1'), 10_000);
    expect(windows.retryAfter(keys('A', '1'), 10_000)).toBe(50); // the window opened by the first failure ends at 60 s
    expect(windows.retryAfter(keys('A', '1'), 59_500)).toBe(1);
    expect(windows.retryAfter(keys('A', '1'), 60_000)).toBe(0);
    expect(windows.retryAfter(keys('B', '2'), 10_000)).toBe(0); // another code from another address
  });

  it('holds a source back after its failures whatever the code, and everyone once the global limit is spent', () => {
    const windows = new FailureWindows();
    for (const code of ['A', 'B', 'C']) windows.fail(keys(code, '1'), 0);
    expect(windows.retryAfter(keys('D', '1'), 0)).toBe(60);
    expect(windows.retryAfter(keys('D', '2'), 0)).toBe(0);
    for (const code of ['E', 'F']) windows.fail(keys(code, '2'), 0);
    expect(windows.retryAfter(keys('G', '3'), 0)).toBe(60); // five failures from anywhere: the global limit
  });

  it('a limit of 0 failures is no limit; beyond entriesMax the oldest windows are forgotten first', () => {
    const windows = new FailureWindows(2);
    const off = [['off', { failures: 0, windowMs: 60_000 }]] as const;
    for (let i = 0; i < 5; i++) windows.fail(off, 0);
    expect(windows.retryAfter(off, 0)).toBe(0);
    const one = (key: string) => [[key, { failures: 1, windowMs: 60_000 }]] as const;
    for (const key of ['x', 'y', 'z']) windows.fail(one(key), 0);
    expect([windows.retryAfter(one('x'), 0), windows.retryAfter(one('y'), 0), windows.retryAfter(one('z'), 0)]).toEqual([0, 60, 60]);
  });
});
