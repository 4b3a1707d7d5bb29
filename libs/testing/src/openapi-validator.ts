import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

/**
 * `new Validator().validate(document)` of @seriousme/openapi-schema-validator (OpenAPI 3.0/3.1). It is ESM-only and
 * jest runs CommonJS here, so the validator runs in a child Node process: the document on stdin, the result on stdout.
 */
export function validateOpenApi(document: unknown): { valid: boolean; errors?: unknown } {
  const entry = pathToFileURL(require.resolve('@seriousme/openapi-schema-validator')).href;
  const script = [
    `import { Validator } from ${JSON.stringify(entry)};`,
    'let input = ""; for await (const chunk of process.stdin) input += chunk;',
    'const result = await new Validator().validate(JSON.parse(input));',
    'process.stdout.write(JSON.stringify({ valid: result.valid, errors: result.errors }));',
  ].join('\n');
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { input: JSON.stringify(document), encoding: 'utf8' });
  return JSON.parse(output);
}
