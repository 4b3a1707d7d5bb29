import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const REPO_ROOT = resolve(__dirname, '../..');
const POM = join(__dirname, 'pom.xml');
const PROGRAM = join(__dirname, 'HelmCheck.java');
/** Cached between runs (ignored by git); Maven keeps its own copy in ~/.m2. */
const LIB_DIR = join(REPO_ROOT, '.helm', 'lib');
const MARKER = join(LIB_DIR, '.fetched');
/** Pinned, like deploy/local/kafka.sh's: the plugin version Maven would pick otherwise depends on the machine. */
const COPY_DEPENDENCIES = 'org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy-dependencies';

/** Why real Helm cannot run here, or undefined when java and mvn are on the PATH. */
export function helmUnavailable(): string | undefined {
  const missing = ['java', 'mvn'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
  return missing.length > 0 ? `${missing.join(' and ')} not found: the Helm chart check runs Helm through helm-java on a JVM` : undefined;
}

/** The helm-java jars of pom.xml in .helm/lib, fetched with Maven when missing or when the pom changed. */
export function helmJars(): string {
  const wanted = createHash('sha256').update(readFileSync(POM)).digest('hex');
  if (existsSync(MARKER) && readFileSync(MARKER, 'utf8').trim() === wanted) return LIB_DIR;
  const partial = `${LIB_DIR}.partial`;
  rmSync(partial, { recursive: true, force: true });
  const fetch = spawnSync('mvn', ['-B', '-q', '-f', POM, COPY_DEPENDENCIES, '-DincludeScope=runtime', `-DoutputDirectory=${partial}`], { encoding: 'utf8', timeout: 300_000 });
  if (fetch.status !== 0) throw new Error(`Maven could not fetch the helm-java jars (exit ${fetch.status}): ${fetch.stdout}${fetch.stderr}${fetch.error?.message ?? ''}`);
  if (!readdirSync(partial).some((f) => f.startsWith('linux-amd64-'))) throw new Error('Maven copied no native Helm library (linux-amd64 jar)');
  writeFileSync(join(partial, '.fetched'), `${wanted}\n`);
  rmSync(LIB_DIR, { recursive: true, force: true });
  renameSync(partial, LIB_DIR);
  return LIB_DIR;
}

export type HelmJob = { lint: string; chart: string } | { template: string; chart: string; values: string };

export interface HelmOutcome {
  /** lint: PASSED or FAILED, with Helm's messages. */
  lint: Record<string, { passed: boolean; messages: string }>;
  /** template: the rendered manifests, or Helm's refusal. */
  rendered: Record<string, { yaml: string } | { error: string }>;
}

/** Runs every job in one JVM (HelmCheck.java): starting the JVM and loading Helm's library is most of the cost. */
export function runHelm(jobs: HelmJob[]): HelmOutcome {
  const out = mkdtempSync(join(tmpdir(), 'pp-helm-out-'));
  try {
    const args = jobs.flatMap((job) => ('lint' in job ? ['lint', job.lint, job.chart] : ['template', job.template, job.chart, job.values]));
    const run = spawnSync('java', ['-cp', `${helmJars()}/*`, PROGRAM, out, ...args], { encoding: 'utf8', timeout: 120_000 });
    if (run.status !== 0) throw new Error(`HelmCheck.java failed (exit ${run.status}): ${run.stderr || run.error?.message}`);
    const outcome: HelmOutcome = { lint: {}, rendered: {} };
    for (const job of jobs) {
      if ('lint' in job) {
        const [verdict, ...messages] = readFileSync(join(out, `${job.lint}.lint.txt`), 'utf8').split('\n');
        outcome.lint[job.lint] = { passed: verdict === 'PASSED', messages: messages.join('\n').trim() };
      } else {
        const rendered = join(out, `${job.template}.yaml`);
        outcome.rendered[job.template] = existsSync(rendered) ? { yaml: readFileSync(rendered, 'utf8') } : { error: readFileSync(join(out, `${job.template}.error.txt`), 'utf8') };
      }
    }
    return outcome;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
