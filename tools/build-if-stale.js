#!/usr/bin/env node
// `npm run admin` (and the other commands that run a built program) build only when the built file is missing or
// older than a source: the newest mtime of the sources under apps/ and libs/ (and the build's configuration) against
// the target's. A rebuild on every call made each admin command take half a minute.
const { existsSync, readdirSync, statSync } = require('node:fs');
const { execSync } = require('node:child_process');
const { join } = require('node:path');

const root = join(__dirname, '..');
/** What a build reads; tests (*.spec.ts) are not built. */
const SOURCE = /\.(ts|tsx|mts|js|json|css|html|svg)$/;
const SKIPPED = new Set(['node_modules', 'dist', '.data', 'coverage']);

/** The newest mtime (ms) of a source file under `dirs` (recursively) and of `files`; 0 when there is none. */
function newestSource(dirs, files = []) {
  let newest = 0;
  for (const file of files) if (existsSync(file)) newest = Math.max(newest, statSync(file).mtimeMs);
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (SKIPPED.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (SOURCE.test(entry.name) && !entry.name.endsWith('.spec.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  for (const dir of dirs) if (existsSync(dir)) walk(dir);
  return newest;
}

/** Whether `target` must be built: it is missing, or a source is newer than it. */
function isStale(target, dirs, files = []) {
  if (!existsSync(target)) return true;
  return newestSource(dirs, files) > statSync(target).mtimeMs;
}

module.exports = { isStale, newestSource };

if (require.main === module) {
  const target = join(root, process.argv[2] ?? 'dist/apps/launcher/src/admin.js');
  const configuration = ['package.json', 'tsconfig.base.json', 'tsconfig.build.json'].map((f) => join(root, f));
  if (isStale(target, [join(root, 'apps'), join(root, 'libs')], configuration)) {
    process.stderr.write(`building (${existsSync(target) ? 'sources changed since the last build' : 'not built yet'})...\n`);
    try {
      execSync('npm run build --silent', { cwd: root, stdio: 'inherit' });
    } catch {
      process.exit(1);
    }
  }
}
