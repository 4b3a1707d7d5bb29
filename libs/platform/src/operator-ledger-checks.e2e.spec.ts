import { checkLedger, recordLedgerCheckRun } from '@payments/accounts';
import { startTestPlatform, TestOperator, TestPlatform } from './test-platform';

/** GET /operator/v1/ledger-checks: the history `npm run admin -- ledger:check` records, for operators only. */
describe('operator API: ledger check history', () => {
  let t: TestPlatform;
  let viewer: TestOperator;
  beforeAll(async () => {
    t = await startTestPlatform();
    viewer = await t.createOperator('VIEWER', 'Ledger viewer');
  });
  afterAll(() => t.stop());

  it('lists the recorded runs newest first with cursors; nothing but the runs', async () => {
    expect((await t.operatorCall('GET', '/ledger-checks', { auth: viewer.auth })).body).toEqual({ data: [], hasMore: false, totalCount: 0 });

    // A real check of this platform's ledger, recorded as the CLI records it; then a failing run and a passing one.
    const accounts = t.platform.accounts.host;
    const violations = await checkLedger(accounts.dataSource, accounts.store);
    expect(violations).toEqual([]);
    const [{ n }] = await accounts.dataSource.query(`SELECT count(*)::int AS n FROM accounts.ledger_accounts`);
    await recordLedgerCheckRun(accounts.dataSource, { accountsChecked: n, violations });
    await recordLedgerCheckRun(accounts.dataSource, { accountsChecked: n, violations: [{ rule: 'OVERDRAWN' }, { rule: 'FOLD_MISMATCH' }, { rule: 'OVERDRAWN' }] });
    await recordLedgerCheckRun(accounts.dataSource, { accountsChecked: n + 1, violations: [] });

    const all = await t.operatorCall('GET', '/ledger-checks', { auth: viewer.auth });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ hasMore: false, totalCount: 3 });
    expect(all.body.data.map((run: { violations: number; rules: string[]; accountsChecked: number }) => [run.accountsChecked, run.violations, run.rules])).toEqual([
      [n + 1, 0, []],
      [n, 3, ['FOLD_MISMATCH', 'OVERDRAWN']],
      [n, 0, []],
    ]);
    for (const run of all.body.data) expect(Object.keys(run).sort()).toEqual(['accountsChecked', 'finishedAt', 'rules', 'runId', 'violations']);
    const runIds = all.body.data.map((run: { runId: number }) => run.runId);
    expect(runIds).toEqual([...runIds].sort((a, b) => b - a));

    const first = await t.operatorCall('GET', '/ledger-checks?limit=2', { auth: viewer.auth });
    expect(first.body).toMatchObject({ hasMore: true, nextCursor: expect.any(String), totalCount: 3 });
    const second = await t.operatorCall('GET', `/ledger-checks?limit=2&cursor=${first.body.nextCursor}`, { auth: viewer.auth });
    expect([...first.body.data, ...second.body.data]).toEqual(all.body.data);
    expect(second.body.hasMore).toBe(false);

    for (const query of ['limit=0', 'cursor=nope', 'platformId=x']) {
      const res = await t.operatorCall('GET', `/ledger-checks?${query}`, { auth: viewer.auth });
      expect({ query, status: res.status, code: res.body.code }).toEqual({ query, status: 400, code: 'INVALID_INPUT' });
    }
  });

  it('refuses platform credentials (401) and is not on the platform API', async () => {
    for (const auth of [t.tenant.sandbox, t.tenant.production]) {
      expect((await t.operatorCall('GET', '/ledger-checks', { auth })).body).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    }
    expect((await t.call('GET', '/ledger-checks')).body).toMatchObject({ status: 404 });
  });
});
