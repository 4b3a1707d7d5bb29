import { readFileSync } from 'node:fs';
// Through the library's entry point: it loads reflect-metadata before the operations' class-validator classes.
import { GENERATED_RESPONSE_SCHEMAS, OPERATIONS } from '../index';

interface GeneratedFile {
  file: string;
  absolute: string;
  content: string;
}

// The generator is the plain CommonJS script `npm run contracts:generate` runs; rebuilding in memory is what it writes.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { generate } = require('../../../../tools/contracts/generate.js') as { generate: () => GeneratedFile[] };

describe('generated contract files', () => {
  const generated = generate();

  it.each(generated.map((output) => [output.file, output] as const))('%s is up to date (else run npm run contracts:generate)', (_file, output) => {
    const committed = readFileSync(output.absolute, 'utf8');
    if (committed !== output.content) throw new Error(`${output.file} is stale: run npm run contracts:generate`);
  });

  it('has a response schema for every success body an operation declares', () => {
    const names = OPERATIONS.flatMap((op) => (op.response === undefined ? [] : [typeof op.response === 'string' ? op.response : op.response.page]));
    const missing = [...new Set(names)].filter((name) => !(name in GENERATED_RESPONSE_SCHEMAS));
    expect(missing).toEqual([]);
    expect(GENERATED_RESPONSE_SCHEMAS).toHaveProperty('Error');
  });
});
