import { JSON_ARRAY_LENGTH_MAX, JSON_DEPTH_MAX, jsonBodyProblem } from './json-body-problem';
import { printable, textProblem } from './text-problem';

describe('textProblem', () => {
  it('flags NUL and unpaired surrogates, and nothing else', () => {
    expect(textProblem('a\u0000b')?.constraint).toEqual({ noNulCharacter: true });
    for (const lone of ['\ud800', 'a\ud800b', '\udc00', '\udc00\ud800', 'x\udfff']) expect(textProblem(lone)?.constraint).toEqual({ wellFormedUnicode: true });
    for (const fine of ['', 'plain', '💸 paired \ud83d\udcb8', 'ünïcödé', '\u0001\u001f', '\ufffd']) expect(textProblem(fine)).toBeUndefined();
    expect(printable('a\u0000b\ud800c')).toBe('a\ufffdb\ufffdc');
  });
});

describe('jsonBodyProblem', () => {
  it('accepts ordinary bodies', () => {
    expect(jsonBodyProblem({ name: 'x', address: { line1: '1 Main St' }, permissions: ['VIEW'], n: 1, ok: true, none: null })).toBeUndefined();
    expect(jsonBodyProblem(JSON.parse('['.repeat(JSON_DEPTH_MAX) + ']'.repeat(JSON_DEPTH_MAX)))).toBeUndefined();
    expect(jsonBodyProblem({ items: new Array(JSON_ARRAY_LENGTH_MAX).fill(0) })).toBeUndefined();
  });

  it('names the string or key that holds unstorable text by its dot path', () => {
    expect(jsonBodyProblem({ a: [{ b: 'ok' }, { b: 'x\u0000' }] })).toEqual({ field: 'a.1.b', message: 'a.1.b contains a NUL character (U+0000)', constraint: { noNulCharacter: true } });
    expect(jsonBodyProblem({ address: { 'li\ud800ne1': 'x' } })?.field).toBe('address.li\ufffdne1');
    expect(jsonBodyProblem(['\udc00'])?.field).toBe('0');
  });

  it('bounds depth without recursion, even 1,000,000 levels deep', () => {
    const deep = JSON.parse('['.repeat(1_000_000) + ']'.repeat(1_000_000));
    expect(jsonBodyProblem(deep)).toEqual(expect.objectContaining({ message: `the request body is nested deeper than ${JSON_DEPTH_MAX} levels`, constraint: { maxDepth: JSON_DEPTH_MAX } }));
    expect(jsonBodyProblem(JSON.parse('{"a":'.repeat(JSON_DEPTH_MAX + 1) + '1' + '}'.repeat(JSON_DEPTH_MAX + 1)))?.field).toBe(new Array(JSON_DEPTH_MAX).fill('a').join('.'));
  });

  it('bounds array lengths anywhere in the body', () => {
    expect(jsonBodyProblem({ a: { items: new Array(JSON_ARRAY_LENGTH_MAX + 1).fill(0) } })).toEqual({ field: 'a.items', message: `a.items has more than ${JSON_ARRAY_LENGTH_MAX} elements`, constraint: { maxArrayLength: JSON_ARRAY_LENGTH_MAX } });
    expect(jsonBodyProblem(new Array(JSON_ARRAY_LENGTH_MAX + 1).fill('a'))?.field).toBe('body');
  });
});
