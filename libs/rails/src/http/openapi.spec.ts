import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { validateOpenApi } from '@payments/testing';
import { readRailCallbackBody, readRailPaymentOrder, readRailPaymentStatus } from './protocol';

/** docs/rails/http-connector.openapi.yaml is valid OpenAPI 3.1, and it and the readers agree on what is valid. */
describe('the HTTP rail connector protocol document', () => {
  const doc = parse(readFileSync(resolve(__dirname, '../../../../docs/rails/http-connector.openapi.yaml'), 'utf8'));
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'https://rails.local/doc', components: doc.components });
  const schema = (name: string) => ajv.getSchema(`https://rails.local/doc#/components/schemas/${name}`)!;
  const post = doc.paths['/payments'].post;

  it('is valid OpenAPI 3.1', () => {
    const result = validateOpenApi(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('has examples that its schemas and the readers both accept', () => {
    const order = post.requestBody.content['application/json'].example;
    expect(schema('PaymentOrder')(order)).toBe(true);
    expect(readRailPaymentOrder(order)).toEqual(order);
    const status = post.responses['201'].content['application/json'].example;
    expect(schema('PaymentStatus')(status)).toBe(true);
    expect(readRailPaymentStatus(status)).toEqual(status);
    const callback = doc.components.pathItems.PaymentUpdatedCallback.post.requestBody.content['application/json'].example;
    expect(schema('PaymentUpdated')(callback)).toBe(true);
    expect(readRailCallbackBody(callback)).toEqual(callback);
  });

  it('refuses what the readers refuse', () => {
    const status = { id: 'pay_1', status: 'PENDING', updatedAt: '2025-10-09T08:53:20Z', sequence: 1 };
    const bad: unknown[] = [
      { ...status, status: 'DONE' },
      { ...status, sequence: -1 },
      { ...status, sequence: 1.5 },
      { ...status, status: 'RETURNED' },
      { ...status, id: '' },
      { id: 'pay_1', status: 'PENDING', sequence: 1 },
    ];
    for (const each of bad) {
      expect({ each, schema: schema('PaymentStatus')(each) }).toEqual({ each, schema: false });
      expect(() => readRailPaymentStatus(each)).toThrow();
    }
    const order = post.requestBody.content['application/json'].example;
    for (const each of [{ ...order, amount: 1.5 }, { ...order, amount: 0 }, { ...order, currency: 'usd' }, { ...order, reference: 'x'.repeat(36) }, { ...order, direction: 'OUT' }]) {
      expect({ each, schema: schema('PaymentOrder')(each) }).toEqual({ each, schema: false });
      expect(() => readRailPaymentOrder(each)).toThrow();
    }
  });
});
