import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { OptionalNotNull } from './optional-not-null';
import { QueryArray, toQueryArray } from './query-array';

class Probe {
  @OptionalNotNull() @QueryArray({ maxItems: 3 }) codes?: string[];
}

const parse = (codes: unknown) => {
  const probe = plainToInstance(Probe, codes === undefined ? {} : { codes });
  return { codes: probe.codes, errors: validateSync(probe).map((e) => Object.keys(e.constraints ?? {})).flat() };
};

describe('QueryArray', () => {
  it('turns a repeated, a comma-joined or a mixed parameter into one trimmed list, in order', () => {
    expect(parse('MXN')).toEqual({ codes: ['MXN'], errors: [] });
    expect(parse('MXN,EUR')).toEqual({ codes: ['MXN', 'EUR'], errors: [] });
    expect(parse(['MXN', 'EUR'])).toEqual({ codes: ['MXN', 'EUR'], errors: [] });
    expect(parse([' MXN , EUR', 'GBP'])).toEqual({ codes: ['MXN', 'EUR', 'GBP'], errors: [] });
    expect(parse(undefined)).toEqual({ codes: undefined, errors: [] });
  });

  it('refuses empty items, too many items and anything that is not strings', () => {
    expect(parse('').errors).toContain('minLength');
    expect(parse('MXN,,EUR').errors).toContain('minLength');
    expect(parse('A,B,C,D').errors).toContain('arrayMaxSize');
    expect(parse({ a: 'MXN' }).errors).toContain('isArray');
    expect(parse([{ a: 1 }]).errors).toContain('isString');
    expect(parse(null).errors).toContain('isArray');
  });

  it('leaves values it cannot split unchanged', () => {
    expect(toQueryArray(3)).toBe(3);
    expect(toQueryArray(['a', 1])).toEqual(['a', 1]);
  });
});
