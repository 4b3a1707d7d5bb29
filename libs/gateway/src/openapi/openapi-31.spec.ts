import { sortKeys, toOpenApi31 } from './openapi-31';

describe('toOpenApi31', () => {
  it('turns 3.0 nullable into JSON Schema type arrays, null in enums, anyOf for typeless schemas', () => {
    const doc = toOpenApi31({
      openapi: '3.0.0',
      components: {
        schemas: {
          A: {
            type: 'object',
            properties: {
              plain: { type: 'string', nullable: true },
              listed: { type: 'string', enum: ['X', 'Y'], nullable: true },
              already: { type: ['integer', 'null'], nullable: true },
              linked: { $ref: '#/components/schemas/B', nullable: true },
              strict: { type: 'string', nullable: false },
            },
          },
        },
      },
    });
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.schemas.A.properties).toEqual({
      already: { type: ['integer', 'null'] },
      linked: { anyOf: [{ $ref: '#/components/schemas/B' }, { type: 'null' }] },
      listed: { type: ['string', 'null'], enum: ['X', 'Y', null] },
      plain: { type: ['string', 'null'] },
      strict: { type: 'string' },
    });
  });

  it('moves boolean exclusive bounds into the 2020-12 numeric form', () => {
    const { schema } = toOpenApi31({ schema: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: false } });
    expect(schema).toEqual({ type: 'number', exclusiveMinimum: 0, maximum: 10 });
  });

  it('leaves examples, defaults and properties that happen to be named like keywords alone', () => {
    const input = {
      type: 'object',
      example: { nullable: true },
      properties: { nullable: { type: 'boolean', default: true }, default: { type: 'string', nullable: true } },
    };
    const out = toOpenApi31({ schema: input }).schema as Record<string, any>;
    expect(out.example).toEqual({ nullable: true });
    expect(out.properties.nullable).toEqual({ type: 'boolean', default: true });
    expect(out.properties.default).toEqual({ type: ['string', 'null'] });
  });

  it('orders keys (top level first by the usual reading order), whatever the input order, and keeps arrays', () => {
    const a = toOpenApi31({ paths: { '/b': {}, '/a': {} }, info: { version: '1', title: 't' }, required: ['z', 'a'] });
    const b = toOpenApi31({ required: ['z', 'a'], info: { title: 't', version: '1' }, paths: { '/a': {}, '/b': {} } });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(Object.keys(a)).toEqual(['openapi', 'info', 'paths', 'required']);
    expect(a.required).toEqual(['z', 'a']);
    expect(sortKeys({ b: 1, a: [{ d: 1, c: 2 }] })).toEqual({ a: [{ c: 2, d: 1 }], b: 1 });
  });
});
