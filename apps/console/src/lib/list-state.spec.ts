import { readListState, withFilter, writeListState } from './list-state';

describe('a list’s state in its URL', () => {
  it('reads the filters it knows and the cursor, ignoring the rest', () => {
    expect(readListState('?status=FAILED&cursor=abc&evil=1&type=', ['status', 'type'])).toEqual({ filters: { status: 'FAILED' }, cursor: 'abc' });
    expect(readListState('', ['status'])).toEqual({ filters: {} });
  });

  it('writes a stable query string that reads back the same', () => {
    const state = { filters: { type: 'OUTGOING', status: 'FAILED' }, cursor: 'c1' };
    const text = writeListState(state);
    expect(text).toBe('?status=FAILED&type=OUTGOING&cursor=c1');
    expect(readListState(text, ['status', 'type'])).toEqual(state);
    expect(writeListState({ filters: {} })).toBe('');
  });

  it('encodes what it writes (ids hold colons, emails hold plus signs)', () => {
    const text = writeListState({ filters: { customerId: 'Customer:1 2', email: 'a+b@x' } });
    expect(readListState(text, ['customerId', 'email']).filters).toEqual({ customerId: 'Customer:1 2', email: 'a+b@x' });
  });

  it('starts again at the first page when a filter changes', () => {
    const next = withFilter({ filters: { status: 'FAILED' }, cursor: 'c9' }, 'type', 'CARD');
    expect(next).toEqual({ filters: { status: 'FAILED', type: 'CARD' } });
    expect(withFilter(next, 'status', '')).toEqual({ filters: { type: 'CARD' } });
  });
});
