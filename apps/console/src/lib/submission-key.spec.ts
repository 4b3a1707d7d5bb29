import { SubmissionKey } from './submission-key';

describe('a form’s Idempotency-Key', () => {
  let n = 0;
  const keys = () => new SubmissionKey(() => `key-${++n}`);

  it('stays the same while the same values are retried, so the API sees one request', () => {
    const k = keys();
    const first = k.for({ amount: 2500, to: 'ExternalAccount:1' });
    expect(k.for({ amount: 2500, to: 'ExternalAccount:1' })).toBe(first);
  });

  it('changes when the values change, and after a success', () => {
    const k = keys();
    const first = k.for({ amount: 2500 });
    const changed = k.for({ amount: 2600 });
    expect(changed).not.toBe(first);
    k.succeeded();
    expect(k.for({ amount: 2600 })).not.toBe(changed);
  });
});
