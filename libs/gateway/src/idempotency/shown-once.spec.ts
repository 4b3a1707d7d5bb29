import { withoutShownOnce } from './shown-once';

describe('withoutShownOnce', () => {
  it('removes top-level and nested fields, and fields of every array item, without touching the input', () => {
    const body = { id: 'T', clientSecret: 's', deviceCode: { code: 'c', agentId: 'A' }, data: [{ clientSecret: 'x', id: 1 }, { id: 2 }] };
    const copy = JSON.parse(JSON.stringify(body));
    expect(withoutShownOnce(body, ['clientSecret', 'deviceCode.code', 'data[].clientSecret'])).toEqual({ id: 'T', deviceCode: { agentId: 'A' }, data: [{ id: 1 }, { id: 2 }] });
    expect(body).toEqual(copy);
  });

  it('leaves bodies without the fields, errors, lists and scalars as they are', () => {
    expect(withoutShownOnce({ status: 400, code: 'INVALID_INPUT' }, ['clientSecret', 'deviceCode.code'])).toEqual({ status: 400, code: 'INVALID_INPUT' });
    expect(withoutShownOnce({ deviceCode: null }, ['deviceCode.code'])).toEqual({ deviceCode: null });
    expect(withoutShownOnce([{ clientSecret: 's' }], ['clientSecret'])).toEqual([{ clientSecret: 's' }]);
    expect(withoutShownOnce(null, ['clientSecret'])).toBeNull();
    expect(withoutShownOnce({ a: 1 }, undefined)).toEqual({ a: 1 });
  });
});
