import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const REPO = resolve(__dirname, '../../..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { engines } = require(join(REPO, 'package.json')) as { engines: { node: string } };
/** The decision tools/ensure-install.js makes (plain JavaScript: it runs before anything is installed). */
function nodeVersionProblem(version: string, range: string): string | undefined {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require(join(REPO, 'tools/supported-node.js')) as { nodeVersionProblem: typeof nodeVersionProblem }).nodeVersionProblem(version, range);
}

/** How long `npm start`/`npm test` may take to refuse: well under the build they must not reach. */
const REFUSE_WITHIN_MS = 20_000;

/**
 * `npm start` and `npm test` on a Node.js older than package.json's engines: they stop before installing, building
 * or starting anything, and say which Node.js they need and which one they found. The old Node.js is simulated by a
 * --require preload that makes process.versions.node say 20.19.0 (in every node process npm starts).
 */
describe('npm start and npm test on a Node.js older than engines', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pp-node-version-'));
    writeFileSync(join(dir, 'node-20.js'), "Object.defineProperty(process.versions, 'node', { value: '20.19.0' });\n");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs `npm <script>` in its own process group; whatever it started is killed with it at the deadline. */
  function npm(script: string): Promise<{ code: number | null; output: string; stopped: boolean }> {
    return new Promise((done) => {
      const child = spawn('npm', [script], {
        cwd: REPO,
        env: { ...process.env, NODE_OPTIONS: `--require ${join(dir, 'node-20.js')}`, PORT: '0', LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      let output = '';
      child.stdout!.on('data', (d) => (output += d));
      child.stderr!.on('data', (d) => (output += d));
      const deadline = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), REFUSE_WITHIN_MS);
      child.once('exit', (code, signal) => {
        clearTimeout(deadline);
        done({ code, output, stopped: signal === null });
      });
    });
  }

  it.each(['start', 'test'])('npm %s exits non-zero at once, naming the Node.js it needs and the one it found', async (script) => {
    const run = await npm(script);
    expect({ stoppedByItself: run.stopped, code: run.code }).toEqual({ stoppedByItself: true, code: 1 });
    expect(run.output).toContain(`payments-platform needs Node.js ${engines.node}; this is Node.js 20.19.0`);
    expect(run.output).not.toContain('installing dependencies');
  });

  it('the decision: a version below the minimum of engines is refused, the minimum and above are not', () => {
    expect(nodeVersionProblem('20.19.0', '>=24')).toMatch(/needs Node\.js >=24; this is Node\.js 20\.19\.0/);
    expect(nodeVersionProblem('23.11.1', '>=24')).toBeDefined();
    expect(nodeVersionProblem('24.0.0', '>=24')).toBeUndefined();
    expect(nodeVersionProblem('24.11.1', '>=24.11')).toBeUndefined();
    expect(nodeVersionProblem('24.10.9', '>=24.11')).toBeDefined();
    expect(nodeVersionProblem('26.1.0', '>=24')).toBeUndefined();
    expect(() => nodeVersionProblem('24.0.0', '^24 || ^26')).toThrow(/engines/);
  });

  it('the running Node.js satisfies engines', () => {
    expect(nodeVersionProblem(process.versions.node, engines.node)).toBeUndefined();
  });
});

/**
 * .ci/node.sh (sourced by .ci/run): on a machine whose node is older than 24 it puts the cached node-linux-<arch>@24
 * first on PATH; where node is already 24 it changes nothing. Stand-in `node` programs keep the test off the
 * registry: the cache is seeded, so nothing is installed (an install would print "installing").
 */
describe('.ci/node.sh selects Node.js 24 for the CI run', () => {
  let dir: string;
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pp-ci-node-'));
    fakeNode(join(dir, 'old-bin'), '20.19.0');
    fakeNode(join(dir, `cache/payments-platform/node-linux-${arch}-24/node_modules/.bin`), '24.11.1');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function fakeNode(bin: string, version: string): void {
    mkdirSync(bin, { recursive: true });
    const program = join(bin, 'node');
    // Answers the two questions node.sh asks: -p <major> and --version.
    writeFileSync(program, `#!/bin/sh\nif [ "$1" = -p ]; then echo ${version.split('.')[0]}; else echo v${version}; fi\n`);
    chmodSync(program, 0o755);
  }

  const sourced = (path: string) =>
    spawnSync('bash', ['-c', 'source .ci/node.sh && command -v node && node --version'], {
      cwd: REPO,
      env: { PATH: path, HOME: dir, XDG_CACHE_HOME: join(dir, 'cache') },
      encoding: 'utf8',
    });

  it('an older node: the cached Node.js 24 comes first on PATH, nothing is installed again', () => {
    const run = sourced(`${join(dir, 'old-bin')}:/usr/bin:/bin`);
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).not.toContain('installing');
    expect(run.stdout.trim().split('\n')).toEqual([join(dir, `cache/payments-platform/node-linux-${arch}-24/node_modules/.bin/node`), 'v24.11.1']);
  });

  it('a Node.js 24 already first on PATH is kept', () => {
    const run = sourced(`${resolve(process.execPath, '..')}:/usr/bin:/bin`);
    expect({ status: run.status, stdout: run.stdout.trim().split('\n') }).toEqual({ status: 0, stdout: [process.execPath, process.version] });
  });
});
