import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// tools/build-if-stale.js: what `npm run admin` asks before it runs the built CLI (plain CommonJS, no types).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { isStale } = require('../../../tools/build-if-stale') as { isStale: (target: string, dirs: string[], files?: string[]) => boolean };

/** `npm run admin` builds only when the built CLI is missing or older than a source, not on every call. */
describe('the admin command’s staleness check', () => {
  let root: string;
  let target: string;
  let sources: string;
  const at = (path: string, seconds: number) => utimesSync(path, seconds, seconds);
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'pp-stale-'));
    sources = join(root, 'libs', 'x', 'src');
    mkdirSync(sources, { recursive: true });
    mkdirSync(join(root, 'dist'));
    target = join(root, 'dist', 'admin.js');
    writeFileSync(join(sources, 'a.ts'), 'export const a = 1;');
    at(join(sources, 'a.ts'), 1_000);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('builds when nothing is built yet', () => {
    expect(isStale(target, [join(root, 'libs')])).toBe(true);
  });

  it('does not build when the built file is newer than every source', () => {
    writeFileSync(target, '');
    at(target, 2_000);
    expect(isStale(target, [join(root, 'libs')])).toBe(false);
  });

  it('builds once a source (or the build configuration) changed since, but not for a test file', () => {
    writeFileSync(target, '');
    at(target, 2_000);
    writeFileSync(join(sources, 'a.spec.ts'), 'test');
    at(join(sources, 'a.spec.ts'), 3_000);
    expect(isStale(target, [join(root, 'libs')])).toBe(false);
    const config = join(root, 'tsconfig.build.json');
    writeFileSync(config, '{}');
    at(config, 3_000);
    expect(isStale(target, [join(root, 'libs')], [config])).toBe(true);
    at(config, 1_000);
    mkdirSync(join(sources, 'deep', 'er'), { recursive: true });
    writeFileSync(join(sources, 'deep', 'er', 'b.ts'), 'export const b = 2;');
    at(join(sources, 'deep', 'er', 'b.ts'), 3_000);
    expect(isStale(target, [join(root, 'libs')], [config])).toBe(true);
  });
});
