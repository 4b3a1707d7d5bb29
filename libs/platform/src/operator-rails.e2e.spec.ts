import { OPERATOR_API_PREFIX } from '@payments/contracts';
import { eventually, HttpResult } from '@payments/testing';
import { startTestPlatform, TestOperator, TestPlatform } from './test-platform';

/**
 * The rails' operator API (docs/rails.md) over HTTP, on a deployment without a production rail connector: the
 * connector list is empty, the file and payment reads answer empty or 404, an import is refused naming why, and an
 * exception (seeded in the table as an imported file's unmatched entry would be) is listed and resolved once, with
 * its audit record; the roles and the two APIs' credentials hold.
 */
describe('operator API: rails', () => {
  let t: TestPlatform;
  let admin: TestOperator;
  let rita: TestOperator;
  let vic: TestOperator;

  beforeAll(async () => {
    t = await startTestPlatform();
    [admin, rita, vic] = [await t.createOperator('ADMIN', 'Ada Admin'), await t.createOperator('REVIEWER', 'Rita Reviewer'), await t.createOperator('VIEWER', 'Vic Viewer')];
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
  });

  const op = (method: string, path: string, who: TestOperator, body?: unknown) => t.operatorCall(method, path, { auth: who.auth, body });
  const expectError = (res: HttpResult, status: number, code: string) => expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  const seedException = (exceptionId: string, createdAt: string) =>
    t.platform.payments.host.dataSource.query(
      `INSERT INTO payments.rail_exceptions (exception_id, connector_id, file_id, kind, message, detail, created_at)
       VALUES ($1, 'bank-ach', 'RailFile:returns-1', 'UNMATCHED_ENTRY', 'R03 return for trace 091000010000042 matches no payment', $2::jsonb, $3)`,
      [exceptionId, JSON.stringify({ traceNumber: '091000010000042', returnCode: 'R03', amount: 1250 }), createdAt],
    );
  const importForm = async (who: TestOperator, file: { name: string; bytes: Buffer }, fields: Record<string, string> = {}) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', new Blob([new Uint8Array(file.bytes)]), file.name);
    const response = await fetch(`${new URL(t.url).origin}${OPERATOR_API_PREFIX}/rails/imports`, { method: 'POST', body: form, headers: { authorization: who.auth } });
    return { status: response.status, body: (await response.json()) as any };
  };

  it('lists no connector, no file, no exception on a deployment without rails; an unknown file or payment is 404', async () => {
    expect((await op('GET', '/rails/connectors', vic)).body).toEqual({ data: [] });
    const files = await op('GET', '/rails/files?direction=OUTBOUND', vic);
    expect({ status: files.status, body: files.body }).toEqual({ status: 200, body: { data: [], hasMore: false, totalCount: 0 } });
    expect((await op('GET', '/rails/exceptions', vic)).body).toMatchObject({ data: [], totalCount: 0 });
    expectError(await op('GET', '/rails/files/RailFile:nope', vic), 404, 'REFERENCE_NOT_FOUND');
    expectError(await op('GET', '/rails/files/RailFile:nope/content', rita), 404, 'REFERENCE_NOT_FOUND');
    expectError(await op('GET', '/rails/payments/Transaction:0198c0de-0000-7000-8000-000000000000', vic), 404, 'REFERENCE_NOT_FOUND');
    expectError(await op('GET', '/rails/files?direction=SIDEWAYS', vic), 400, 'INVALID_INPUT');
    expectError(await op('GET', '/rails/files?cursor=not-a-cursor', vic), 400, 'INVALID_INPUT');
  });

  it('refuses an import no connector reads, records nothing, and keeps imports to ADMIN', async () => {
    const refused = await importForm(admin, { name: 'notes.txt', bytes: Buffer.from('not a bank file\n') });
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 400, code: 'INVALID_INPUT' });
    expect(refused.body.message).toMatch(/not a NACHA return file, pain.002 or camt.054/);
    const named = await importForm(admin, { name: 'returns.ach', bytes: Buffer.from('101 091000019 1234567890\n') }, { connectorId: 'bank-ach' });
    expect({ status: named.status, message: named.body.message }).toEqual({ status: 400, message: expect.stringContaining('no connector bank-ach is configured') });
    const badField = await importForm(admin, { name: 'returns.ach', bytes: Buffer.from('x') }, { connectorId: 'Not An Id' });
    expect({ status: badField.status, code: badField.body.code }).toEqual({ status: 400, code: 'INVALID_INPUT' });
    const byReviewer = await importForm(rita, { name: 'returns.ach', bytes: Buffer.from('x') });
    expect({ status: byReviewer.status, code: byReviewer.body.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
    expect((await op('GET', '/rails/files', vic)).body.totalCount).toBe(0);
  });

  it('lists exceptions oldest first with filters and cursors, resolves one once with its audit record', async () => {
    await seedException('RailException:second', '2025-06-02T10:00:00Z');
    await seedException('RailException:first', '2025-06-01T10:00:00Z');
    const page1 = await op('GET', '/rails/exceptions?status=OPEN&limit=1', vic);
    expect(page1.body).toMatchObject({ data: [{ id: 'RailException:first', connectorId: 'bank-ach', fileId: 'RailFile:returns-1', kind: 'UNMATCHED_ENTRY', status: 'OPEN', detail: { traceNumber: '091000010000042' }, createdAt: '2025-06-01T10:00:00.000Z' }], hasMore: true, totalCount: 2 });
    const page2 = await op('GET', `/rails/exceptions?status=OPEN&limit=1&cursor=${page1.body.nextCursor}`, vic);
    expect(page2.body).toMatchObject({ data: [{ id: 'RailException:second' }], hasMore: false });
    expect((await op('GET', '/rails/exceptions?kind=BRIDGE_ERROR', vic)).body.totalCount).toBe(0);
    expect((await op('GET', '/rails/exceptions?connectorId=other-bank', vic)).body.totalCount).toBe(0);

    expectError(await op('POST', '/rails/exceptions/RailException:first/resolve', vic, { resolution: 'looked' }), 403, 'FORBIDDEN');
    expectError(await op('POST', '/rails/exceptions/RailException:first/resolve', rita, { resolution: '   ' }), 400, 'INVALID_INPUT');
    expectError(await op('POST', '/rails/exceptions/RailException:first/resolve', rita, { resolution: 'x'.repeat(1001) }), 400, 'INVALID_INPUT');
    expectError(await op('POST', '/rails/exceptions/RailException:unknown/resolve', rita, { resolution: 'nothing' }), 404, 'REFERENCE_NOT_FOUND');

    const resolution = 'Trace 091000010000042 is from the bank\'s test batch (confirmed by phone, ticket 4411): nothing to reverse.';
    const resolved = await op('POST', '/rails/exceptions/RailException:first/resolve', rita, { resolution });
    expect({ status: resolved.status, body: resolved.body }).toEqual({ status: 200, body: expect.objectContaining({ id: 'RailException:first', status: 'RESOLVED', resolution, resolvedBy: rita.id }) });
    expect(Math.abs(Date.parse(resolved.body.resolvedAt) - Date.now())).toBeLessThan(60_000);
    expectError(await op('POST', '/rails/exceptions/RailException:first/resolve', admin, { resolution: 'again' }), 409, 'RAIL_EXCEPTION_ALREADY_RESOLVED');
    const [row] = await t.platform.payments.host.dataSource.query(`SELECT status, resolution, resolved_by FROM payments.rail_exceptions WHERE exception_id = 'RailException:first'`);
    expect(row).toEqual({ status: 'RESOLVED', resolution, resolved_by: rita.id });

    expect((await op('GET', '/rails/exceptions?status=OPEN', vic)).body).toMatchObject({ data: [{ id: 'RailException:second' }], totalCount: 1 });
    expect((await op('GET', '/rails/exceptions?status=RESOLVED', vic)).body).toMatchObject({ data: [{ id: 'RailException:first', resolution }], totalCount: 1 });

    const audited = await eventually(
      async () => {
        const data = (await op('GET', '/audit-events?action=rails.exception.resolve', vic)).body.data;
        return data.length > 0 ? data : undefined;
      },
      { what: 'the audit record of the resolution' },
    );
    expect(audited).toEqual([
      expect.objectContaining({
        service: 'payments',
        operator: { id: rita.id, name: 'Rita Reviewer', role: 'REVIEWER' },
        action: 'rails.exception.resolve',
        target: { type: 'RailException', id: 'RailException:first' },
        reason: resolution,
        details: { connectorId: 'bank-ach', kind: 'UNMATCHED_ENTRY', fileId: 'RailFile:returns-1' },
      }),
    ]);
  });

  it('refuses platform credentials on every rails route (401)', async () => {
    for (const auth of [t.tenant.sandbox, t.tenant.production]) {
      for (const path of ['/rails/connectors', '/rails/files', '/rails/exceptions', '/rails/payments/Transaction:x']) expectError(await t.operatorCall('GET', path, { auth }), 401, 'UNAUTHORIZED');
      expectError(await t.operatorCall('POST', '/rails/exceptions/RailException:second/resolve', { auth, body: { resolution: 'no' } }), 401, 'UNAUTHORIZED');
    }
    expect((await op('GET', '/rails/exceptions?status=OPEN', vic)).body.totalCount).toBe(1);
  });
});
