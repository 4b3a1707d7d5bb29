import { ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parse } from 'yaml';
import { loadConfig } from '@payments/runtime';
import { createTestDatabase, TestDatabase } from '@payments/testing';
import { CLUSTER_APPS, configKeyOf, envPrefixOf } from '../cluster-apps';
import { copyOf, inBuildContext, Instruction, readDockerfile } from './dockerfile';

const REPO = resolve(__dirname, '../..');
const DOCKERFILE = readDockerfile(join(REPO, 'deploy/Dockerfile'));
const DOCKERIGNORE = readFileSync(join(REPO, '.dockerignore'), 'utf8');
const RUNTIME = DOCKERFILE.filter((i) => i.stage === 'runtime');

/** What a RUN instruction of the Dockerfile's runtime stage runs: the `npm ci …` part, word by word. */
function runtimeCommand(program: string): string[] {
  const command = RUNTIME.filter((i) => i.keyword === 'RUN')
    .flatMap((i) => i.args.split('&&').map((c) => c.trim()))
    .find((c) => c.startsWith(program));
  if (!command) throw new Error(`the runtime stage runs no ${program}`);
  return command.split(/\s+/);
}

/**
 * deploy/Dockerfile without a Docker engine: what it copies exists and is in the build context, and the image's
 * contents (the built dist/ on a clean production-only install, started through its entry point) run.
 */
describe('deploy/Dockerfile', () => {
  it('copies only paths that exist and that .dockerignore lets into the build context, and no local state or secret', () => {
    const copies = DOCKERFILE.filter((i) => i.keyword === 'COPY').map(copyOf);
    const fromContext = copies.filter((c) => !c.from).flatMap((c) => c.sources);
    expect(fromContext.length).toBeGreaterThan(5);
    for (const source of fromContext) expect({ source, exists: existsSync(join(REPO, source)), inContext: inBuildContext(source, DOCKERIGNORE) }).toEqual({ source, exists: true, inContext: true });
    for (const kept of ['.env', '.data/secret-hash.key', 'node_modules/pg/package.json', 'dist/apps/gateway/src/main.js', '.git/config', '.helm/lib/x.jar', 'libs/payments/src/payments.e2e.spec.ts']) {
      expect({ kept, inContext: inBuildContext(kept, DOCKERIGNORE) }).toEqual({ kept, inContext: false });
    }
    // The runtime stage takes only the build's output from the build stage.
    expect(copies.filter((c) => c.from)).toEqual([{ from: 'build', sources: ['/src/dist'], destination: './dist' }]);
  });

  it('gives the build stage every file the TypeScript build reads', () => {
    const copied = DOCKERFILE.filter((i) => i.stage === 'build' && i.keyword === 'COPY').flatMap((i) => copyOf(i).sources);
    const read = execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--listFilesOnly'], { cwd: REPO, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f && !f.includes('/node_modules/'))
      .map((f) => relative(REPO, f));
    expect(read.length).toBeGreaterThan(100);
    const missing = read.filter((f) => !copied.some((s) => f === s || f.startsWith(`${s}/`)) || !inBuildContext(f, DOCKERIGNORE));
    expect(missing).toEqual([]);
  });

  it('builds and runs on the Node.js major that package.json engines names (an LTS line), in both stages', () => {
    const { engines } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { engines: { node: string } };
    const major = Number(/^>=\s*(\d+)/.exec(engines.node)?.[1]);
    expect(major % 2).toBe(0); // even majors become LTS; the image follows the one the project supports
    const arg = DOCKERFILE.find((i) => i.keyword === 'ARG' && i.args.startsWith('NODE_IMAGE='))?.args.slice('NODE_IMAGE='.length);
    expect(arg).toMatch(new RegExp(`^node:${major}-[a-z]+-slim(@sha256:[0-9a-f]{64})?$`));
    expect(DOCKERFILE.filter((i) => i.keyword === 'FROM').map((i) => i.args.split(/\s+/)[0])).toEqual(['${NODE_IMAGE}', '${NODE_IMAGE}']);
  });

  it('runs the entry point as a non-root user', () => {
    const last = (keyword: string) => RUNTIME.filter((i: Instruction) => i.keyword === keyword).pop()?.args;
    expect(last('USER')).toMatch(/^[1-9][0-9]*:[1-9][0-9]*$/); // numeric, so Kubernetes can check runAsNonRoot
    expect(JSON.parse(last('ENTRYPOINT')!)).toEqual(['/app/entrypoint.sh']);
    expect(last('WORKDIR')).toBe('/app');
    expect(RUNTIME.filter((i) => i.keyword === 'COPY').map(copyOf)).toContainEqual({ sources: ['deploy/entrypoint.sh'], destination: './entrypoint.sh' });
  });

  describe('the image contents: dist/ on a clean `npm ci --omit=dev`, started through entrypoint.sh', () => {
    let app: string;
    let database: TestDatabase;
    const running: ChildProcess[] = [];
    const brokers: Server[] = [];

    beforeAll(async () => {
      const dist = join(REPO, 'dist/apps/launcher/src/admin.js');
      if (!existsSync(dist)) throw new Error(`${dist} is missing: run npm run build (npm test does it first)`);
      app = mkdtempSync(join(tmpdir(), 'pp-image-'));
      cpSync(join(REPO, 'package.json'), join(app, 'package.json'));
      cpSync(join(REPO, 'package-lock.json'), join(app, 'package-lock.json'));
      const [npm, ...args] = runtimeCommand('npm ci');
      const started = performance.now();
      const install = spawnSync(npm, args, { cwd: app, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' }, timeout: 240_000 });
      if (install.status !== 0) throw new Error(`${npm} ${args.join(' ')} failed: ${install.stderr}`);
      console.info(`${npm} ${args.join(' ')} took ${((performance.now() - started) / 1000).toFixed(1)} s`);
      // What the build stage leaves in dist/ (its `rm -rf` included), and the entry point, where the image has them.
      cpSync(join(REPO, 'dist'), join(app, 'dist'), { recursive: true });
      const removed = DOCKERFILE.filter((i) => i.stage === 'build' && i.keyword === 'RUN').flatMap((i) => /rm -rf (.+)$/.exec(i.args)?.[1].split(/\s+/) ?? []);
      for (const path of removed) rmSync(join(app, path), { recursive: true, force: true });
      cpSync(join(REPO, 'deploy/entrypoint.sh'), join(app, 'entrypoint.sh'));
      database = await createTestDatabase();
    }, 300_000);
    afterAll(async () => {
      for (const child of running) child.kill('SIGKILL');
      for (const broker of brokers) broker.close();
      await database?.drop();
      if (app) rmSync(app, { recursive: true, force: true });
    });

    // DATA_DIR under a file: nothing can be written there, not even by root, as on the pods' read-only root file system.
    const entrypoint = (args: string[], env: NodeJS.ProcessEnv) =>
      spawn('sh', [join(app, 'entrypoint.sh'), ...args], { cwd: tmpdir(), env: { PATH: process.env.PATH, NODE_ENV: 'production', DATA_DIR: join(app, 'package.json', 'data'), ...env } });

    it('installed no dev dependency, and names exactly the cluster apps, the launcher and admin', () => {
      expect(existsSync(join(app, 'node_modules/pg/package.json'))).toBe(true);
      for (const dev of ['jest', 'typescript', '@swc/core', 'nx', 'autocannon']) expect({ dev, installed: existsSync(join(app, 'node_modules', dev)) }).toEqual({ dev, installed: false });
      expect(readdirSync(join(app, 'dist/apps')).sort()).toEqual([...CLUSTER_APPS, 'launcher'].sort());
      // The console's static files, which the gateway serves from dist/console (none of react & co. is installed).
      expect(readdirSync(join(app, 'dist/console')).sort()).toEqual(['assets', 'favicon.svg', 'index.html']);
      for (const dev of ['react', 'vite', 'playwright-core']) expect({ dev, installed: existsSync(join(app, 'node_modules', dev)) }).toEqual({ dev, installed: false });
      const unknown = spawnSync('sh', [join(app, 'entrypoint.sh'), 'bench'], { encoding: 'utf8' });
      expect(unknown.status).toBe(2);
      expect(unknown.stderr).toContain(`app one of: admin ${CLUSTER_APPS.slice(0, 2).join(' ')}`);
      expect(spawnSync('sh', [join(app, 'entrypoint.sh'), '../../etc/passwd'], { encoding: 'utf8' }).status).toBe(2);
    });

    it('runs `admin db:migrate` (the Helm hook Job) on an empty database', async () => {
      const child = entrypoint(['admin', 'db:migrate'], { DATABASE_URL: database.url, LOG_LEVEL: 'silent' });
      const { code, output } = await exited(child);
      expect({ code, output: code === 0 ? '' : output }).toEqual({ code: 0, output: '' });
      expect(Object.keys(JSON.parse(output).applied).sort()).toEqual(['accounts', 'agents', 'cards', 'gateway', 'identity', 'payments', 'quoting', 'wallet_auth', 'webhooks']);
    });

    it('starts every cluster app (APP=<name>) through its whole boot up to connecting to Kafka', async () => {
      // A stand-in broker per app that only records the connection: an app reaches it after loading its module
      // graph, migrating its schema and wiring its servers (the gateway mounts its routes first), so a missing
      // production dependency would have ended it before.
      const reached = await Promise.all(
        CLUSTER_APPS.map(async (name) => {
          const { port, connected } = await standInBroker(brokers);
          const child = entrypoint([], { ...clusterEnv(database.url, port), APP: name });
          running.push(child);
          const outcome = await Promise.race([connected.then(() => 'connected to Kafka'), exited(child).then((e) => `exited ${e.code}: ${e.output.slice(-2000)}`)]);
          child.kill('SIGKILL');
          return { name, outcome };
        }),
      );
      expect(reached).toEqual(CLUSTER_APPS.map((name) => ({ name, outcome: 'connected to Kafka' })));
    }, 120_000);
  });
});

describe('deploy/compose.yaml', () => {
  const compose = parse(readFileSync(join(REPO, 'deploy/compose.yaml'), 'utf8'), { merge: true });

  it('runs every cluster app from the one image, wired to each other as the Helm chart wires them', () => {
    const services = compose.services as Record<string, { image: string; command: string[]; environment: Record<string, string>; depends_on: Record<string, { condition: string }> }>;
    expect(Object.keys(services).sort()).toEqual([...CLUSTER_APPS, 'kafka', 'migrate', 'postgres'].sort());
    const image = services.gateway.image;
    for (const name of CLUSTER_APPS) {
      const service = services[name];
      expect({ name, image: service.image, command: service.command }).toEqual({ name, image, command: [name] });
      expect(service.depends_on.migrate).toEqual({ condition: 'service_completed_successfully' });
      const config = loadConfig(interpolated(service.environment));
      expect(config).toMatchObject({ rpcHost: '0.0.0.0', host: '0.0.0.0', kafkaBrokers: ['kafka:9092'], databaseUrl: expect.stringContaining('@postgres:5432/') });
      for (const peer of CLUSTER_APPS.filter((p) => p !== 'gateway')) {
        expect({ name, peer, host: config[`${configKeyOf(peer)}RpcHost` as keyof typeof config] }).toEqual({ name, peer, host: peer });
      }
    }
    expect(services.migrate).toMatchObject({ image, command: ['admin', 'db:migrate'] });
  });
});

/** Compose's variable interpolation as on a machine where only the required variables are set. */
/** What a user sets for a variable Compose requires (`${X:?…}`): a value of the right form where the apps check it. */
const SET_BY_THE_USER: Record<string, string> = { SECRET_HASH_KEY: 'ab'.repeat(32) };

function interpolated(environment: Record<string, string>): NodeJS.ProcessEnv {
  const value = (k: string, v: string) => String(v).replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1').replace(/\$\{[A-Z_]+:\?[^}]*\}/g, SET_BY_THE_USER[k] ?? 'set-by-the-user');
  return Object.fromEntries(Object.entries(environment).map(([k, v]) => [k, value(k, v)]));
}

/** Everything a cluster-mode app needs, every port 0 (none is reached before Kafka), Kafka at the stand-in broker. */
function clusterEnv(databaseUrl: string, brokerPort: number): NodeJS.ProcessEnv {
  const ports = Object.fromEntries(
    CLUSTER_APPS.filter((a) => a !== 'gateway').flatMap((a) => {
      return [[`${envPrefixOf(a)}_RPC_PORT`, '0'], [`${envPrefixOf(a)}_OPS_PORT`, '0']];
    }),
  );
  return { ...ports, PORT: '0', GATEWAY_OPS_PORT: '0', DATABASE_URL: databaseUrl, KAFKA_BROKERS: `127.0.0.1:${brokerPort}`, SECRET_HASH_KEY: 'ab'.repeat(32), PUBLIC_URL: 'http://localhost:3000', LOG_LEVEL: 'info' };
}

async function standInBroker(servers: Server[]): Promise<{ port: number; connected: Promise<void> }> {
  let connected!: () => void;
  const reached = new Promise<void>((resolve) => (connected = resolve));
  const server = createServer((socket) => {
    connected();
    socket.destroy();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, connected: reached };
}

function exited(child: ChildProcess): Promise<{ code: number | null; output: string }> {
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}
