import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';
import { loadConfig, RuntimeConfig } from '@payments/runtime';
import { CLUSTER_APPS, configKeyOf } from '../cluster-apps';
import { helmUnavailable, HelmJob, HelmOutcome, runHelm } from './helm-java';
import { Manifest, schemaViolation, splitManifests } from './kubernetes-schemas';

const REPO = resolve(__dirname, '../..');
const CHART = join(REPO, 'helm/payments-platform');
const mainOf = (app: string) => readFileSync(join(REPO, 'apps', app, 'src/main.ts'), 'utf8');
/**
 * The apps that derive keys from SECRET_HASH_KEY (their main.ts loads it, itself or through runClusterService, which
 * derives the RPC key from it); no other pod may get it.
 */
const SECRET_HASH_KEY_APPS = CLUSTER_APPS.filter((app) => /SECRET_HASH_KEY|runClusterService|loadClusterSecretHashKey/.test(mainOf(app)));
/**
 * The apps whose RPC each app calls, read from the code: the lib its main.ts boots (`@payments/<lib>`), and the
 * ServiceClients that lib makes (`new ServiceClient({ name: '<service>'`). The webhook dispatcher's service is `webhooks`.
 */
const RPC_CALLS: Record<string, string[]> = Object.fromEntries(
  CLUSTER_APPS.map((app) => {
    const libs = [...mainOf(app).matchAll(/from '@payments\/([a-z-]+)'/g)].map((m) => m[1]).filter((lib) => !['runtime', 'messaging', 'observability', 'contracts'].includes(lib));
    const calls = new Set<string>();
    for (const lib of libs) {
      for (const file of sourceFiles(join(REPO, 'libs', lib, 'src'))) {
        for (const [, name] of readFileSync(file, 'utf8').matchAll(/new ServiceClient\(\{ name: '([a-z-]+)'/g)) calls.add(name === 'webhooks' ? 'webhook-dispatcher' : name);
      }
    }
    calls.delete(app);
    return [app, [...calls].sort()];
  }),
);
/** README variables that only the one-process mode (`npm start`) reads: nothing to set in a cluster. */
const EMBEDDED_ONLY = ['DATA_DIR', 'EMBEDDED_POSTGRES_PORT'];
/** Documented alternatives the chart does not use: it passes the rails configuration inline (RAILS_CONFIG). */
const ALTERNATIVES = ['RAILS_CONFIG_FILE'];
/** For replicas sharing one host (a balancer in front): a pod has an address of its own and binds the port its Service targets. */
const SHARED_HOST_ONLY = ['RPC_BIND_PORT'];
const VALUE_SETS = ['minimal', 'full', 'switched-off'] as const;
const valuesFile = (set: string) => join(CHART, 'ci', `${set}-values.yaml`);

const unavailable = helmUnavailable();
if (unavailable && process.env.CI === 'true') throw new Error(`${unavailable}; the chart check is required under CI=true`);
if (unavailable) console.warn(`skipping the Helm chart check: ${unavailable}`);
const describeWithHelm = unavailable ? describe.skip : describe;

/**
 * The chart rendered by real Helm (helm-java, Helm 3.21) for several value sets, every object validated against the
 * Kubernetes API schemas, and read as an SRE would: what each pod runs, where its probes and its peers point, which
 * secrets it can see; values.schema.json refusing bad values; the validator refusing a broken object.
 */
describeWithHelm('helm/payments-platform rendered by Helm', () => {
  let work: string;
  let helm: HelmOutcome;
  const rendered = (name: string) => {
    const outcome = helm.rendered[name];
    if (!('yaml' in outcome)) throw new Error(`Helm refused ${name}: ${outcome.error}`);
    return splitManifests(outcome.yaml);
  };
  const refusal = (name: string) => {
    const outcome = helm.rendered[name];
    if (!('error' in outcome)) throw new Error(`Helm rendered ${name}, which it should have refused`);
    return outcome.error;
  };
  const invalidValues: Record<string, object> = {
    'wrong-type': { ...ciValues('minimal'), appDefaults: { replicaCount: 'two' } },
    'unknown-key': { ...ciValues('minimal'), replicas: 3 },
    'no-database': { ...ciValues('minimal'), database: { poolSizeMax: 5 } },
    'no-kafka': { ...ciValues('minimal'), kafka: { brokers: [] } },
    'literal-secret': { ...ciValues('minimal'), database: { existingSecret: 'db', url: 'postgres://app:hunter2@db/payments' } },
  };

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'pp-helm-check-'));
    // helm lint takes no values file: lint a copy whose values.yaml already holds the minimal required values.
    const lintChart = copyChart(join(work, 'lint'));
    writeFileSync(join(lintChart, 'values.yaml'), stringify(merge(parse(readFileSync(join(CHART, 'values.yaml'), 'utf8')), ciValues('minimal'))));
    // helm-java returns the release manifest without its hooks: a copy whose hook annotations are renamed renders
    // the migration Job with the rest, so it is validated like every other object.
    const hooksChart = copyChart(join(work, 'hooks'));
    const job = join(hooksChart, 'templates/migration-job.yaml');
    writeFileSync(job, readFileSync(job, 'utf8').replaceAll('helm.sh/hook', 'helm-check.invalid/hook'));
    const jobs: HelmJob[] = [{ lint: 'chart', chart: lintChart }];
    for (const set of VALUE_SETS) {
      jobs.push({ template: set, chart: CHART, values: valuesFile(set) }, { template: `${set}+hooks`, chart: hooksChart, values: valuesFile(set) });
    }
    for (const [name, values] of Object.entries(invalidValues)) {
      const file = join(work, `${name}.yaml`);
      writeFileSync(file, stringify(values));
      jobs.push({ template: name, chart: CHART, values: file });
    }
    helm = runHelm(jobs);
  }, 120_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('passes helm lint --strict', () => {
    expect(helm.lint.chart).toEqual({ passed: true, messages: expect.not.stringMatching(/\[(ERROR|WARNING)\]/) });
  });

  it.each(VALUE_SETS)('renders %s values into objects that all validate against the Kubernetes API schemas', async (set) => {
    const manifests = rendered(`${set}+hooks`);
    expect(manifests.length).toBeGreaterThan(CLUSTER_APPS.length * 2);
    const violations = [];
    for (const m of manifests) {
      const violation = await schemaViolation(m);
      if (violation) violations.push(`${m.kind}/${m.metadata.name}: ${violation}`);
    }
    expect(violations).toEqual([]);
  });

  it('has a Deployment, Service, HPA and PodDisruptionBudget for every cluster-mode app in apps/', () => {
    const manifests = rendered('minimal');
    const appsOf = (kind: string) => manifests.filter((m) => m.kind === kind).map((m) => m.metadata.labels?.['app.kubernetes.io/component']).sort();
    expect(CLUSTER_APPS).toHaveLength(9);
    for (const kind of ['Deployment', 'Service', 'HorizontalPodAutoscaler', 'PodDisruptionBudget']) expect({ kind, apps: appsOf(kind) }).toEqual({ kind, apps: CLUSTER_APPS });
    expect(manifests.filter((m) => m.kind === 'ServiceMonitor')).toEqual([]); // off by default
    for (const d of byKind(manifests, 'Deployment')) expect(d.spec.replicas).toBeUndefined(); // the HPA owns it
    for (const hpa of byKind(manifests, 'HorizontalPodAutoscaler')) expect(hpa.spec).toMatchObject({ scaleTargetRef: { kind: 'Deployment', name: hpa.metadata.name }, minReplicas: 2, maxReplicas: 6 });
  });

  it('every pod runs its own app from one image, with probes on the port that app reads from its configuration', () => {
    for (const set of VALUE_SETS) {
      const manifests = rendered(set);
      const config = clusterConfig(manifests);
      const images = new Set<string>();
      for (const app of CLUSTER_APPS) {
        const container = podOf(manifests, app).containers[0];
        images.add(container.image);
        expect({ app, args: container.args }).toEqual({ app, args: [app] });
        const opsPort = config[`${configKeyOf(app)}OpsPort` as keyof RuntimeConfig] as number; // the gateway's too: GATEWAY_OPS_PORT
        const portNamed = (name: string) => container.ports.find((p: { name: string }) => p.name === name)?.containerPort;
        const probePort = portNamed(container.livenessProbe.httpGet.port);
        expect({ app, probePort, liveness: container.livenessProbe.httpGet.path, readiness: container.readinessProbe.httpGet.path, startup: container.startupProbe.httpGet.path }).toEqual({
          app,
          probePort: opsPort,
          liveness: '/healthz',
          readiness: '/readyz',
          startup: '/healthz',
        });
        expect(container.readinessProbe.httpGet.port).toBe(container.livenessProbe.httpGet.port);
        expect(container.resources.requests).toMatchObject({ cpu: expect.anything(), memory: expect.anything() });
      }
      expect(images.size).toBe(1);
    }
  });

  it('points every *_RPC_HOST/_RPC_PORT at the Service of that app, and binds the API, RPC and ops servers to 0.0.0.0', () => {
    const manifests = rendered('full');
    const config = clusterConfig(manifests);
    expect(config.rpcHost).toBe('0.0.0.0');
    expect(config.host).toBe('0.0.0.0');
    const services = byKind(manifests, 'Service');
    for (const app of CLUSTER_APPS.filter((a) => a !== 'gateway')) {
      const service = services.find((s) => s.metadata.labels?.['app.kubernetes.io/component'] === app)!;
      const rpcPort = config[`${configKeyOf(app)}RpcPort` as keyof RuntimeConfig];
      expect({ app, host: config[`${configKeyOf(app)}RpcHost` as keyof RuntimeConfig], port: rpcPort }).toEqual({ app, host: service.metadata.name, port: portOf(service, 'rpc') });
      // The Service selects exactly the pods of that app.
      expect(service.spec.selector).toEqual(deploymentOf(manifests, app).spec.selector.matchLabels);
    }
    const gateway = services.find((s) => s.metadata.labels?.['app.kubernetes.io/component'] === 'gateway')!;
    expect({ port: portOf(gateway, 'http'), type: gateway.spec.type }).toEqual({ port: config.port, type: 'LoadBalancer' });
    expect(config).toMatchObject({ kafkaBrokers: ['kafka-0.kafka-headless.kafka.svc:9092', 'kafka-1.kafka-headless.kafka.svc:9092'], busNamespace: 'prod-eu', publicUrl: 'https://api.example.com' });
    expect(config.scaPasskey).toEqual({ rpId: 'example.com', origins: ['https://app.example.com', 'https://example.com'] });
  });

  it('sets every variable of the README configuration table, and none the README does not document', () => {
    const documented = readmeVariables();
    expect(documented.length).toBeGreaterThan(40);
    const manifests = rendered('full+hooks');
    const set = new Set([...Object.keys(configMap(manifests).data), ...byKind(manifests, 'Deployment').flatMap((d) => chartEnv(d).map((e) => e.name))]);
    expect(documented.filter((v) => !set.has(v) && !EMBEDDED_ONLY.includes(v) && !ALTERNATIVES.includes(v) && !SHARED_HOST_ONLY.includes(v))).toEqual([]);
    expect([...set].filter((v) => !documented.includes(v)).sort()).toEqual(['NODE_OPTIONS']); // full-values.yaml's extraEnv
  });

  it('gives each pod only the secrets its app reads, always by secretKeyRef to an existing Secret', () => {
    const manifests = rendered('full+hooks');
    const secretRefs = (pod: any) =>
      Object.fromEntries(pod.containers[0].env.filter((e: any) => e.valueFrom?.secretKeyRef).map((e: any) => [e.name, `${e.valueFrom.secretKeyRef.name}/${e.valueFrom.secretKeyRef.key}`]));
    for (const app of CLUSTER_APPS) {
      const expected: Record<string, string> = { DATABASE_URL: 'payments-platform-database/url' };
      if (SECRET_HASH_KEY_APPS.includes(app)) expected.SECRET_HASH_KEY = 'payments-platform-keys/secret-hash-key';
      if (app === 'identity') {
        for (const v of ['SANDBOX_CLIENT_ID', 'SANDBOX_CLIENT_SECRET', 'PRODUCTION_CLIENT_ID', 'PRODUCTION_CLIENT_SECRET']) expected[`BOOTSTRAP_${v}`] = `payments-platform-bootstrap/BOOTSTRAP_${v}`;
      }
      expect({ app, secrets: secretRefs(podOf(manifests, app)) }).toEqual({ app, secrets: expected });
    }
    const job = byKind(manifests, 'Job')[0];
    expect(secretRefs(job.spec.template.spec)).toEqual({ DATABASE_URL: 'payments-platform-database/url' });
    // No secret value is written into the manifests, and the chart makes no Secret of its own.
    expect(byKind(manifests, 'Secret')).toEqual([]);
    expect(Object.keys(configMap(manifests).data).filter((k) => /SECRET|DATABASE_URL|BOOTSTRAP/.test(k))).toEqual([]);
    // Without a bootstrap Secret identity gets no BOOTSTRAP_* at all (it would refuse half a set).
    expect(Object.keys(secretRefs(podOf(rendered('minimal'), 'identity'))).sort()).toEqual(['DATABASE_URL', 'SECRET_HASH_KEY']);
  });

  it('runs db:migrate from the same image as a pre-install/pre-upgrade hook, before any pod', () => {
    for (const set of ['minimal', 'full'] as const) {
      expect(byKind(rendered(set), 'Job')).toEqual([]); // Helm set it apart as a hook
      const manifests = rendered(`${set}+hooks`);
      const [job] = byKind(manifests, 'Job');
      expect(job.metadata.annotations).toMatchObject({ 'helm-check.invalid/hook': 'pre-install,pre-upgrade', 'helm-check.invalid/hook-delete-policy': 'before-hook-creation,hook-succeeded' });
      const pod = job.spec.template.spec;
      expect(pod.containers[0].args).toEqual(['admin', 'db:migrate']);
      expect(pod.containers[0].image).toBe(podOf(manifests, 'gateway').containers[0].image);
      expect(pod.restartPolicy).toBe('Never');
      // A pre-install hook runs before the chart's ConfigMap and ServiceAccount exist: it must not need them.
      expect(pod.containers[0].envFrom).toBeUndefined();
      expect(pod.serviceAccountName).toBe(set === 'full' ? 'payments-migrate' : undefined);
    }
    expect(byKind(rendered('switched-off+hooks'), 'Job')).toEqual([]);
  });

  it('runs ledger:check daily from the same image as a CronJob with the apps\' configuration, one run at a time; switched off by values', () => {
    const manifests = rendered('minimal');
    const [cron] = byKind(manifests, 'CronJob');
    expect(cron.spec).toMatchObject({ schedule: '17 3 * * *', concurrencyPolicy: 'Forbid' });
    const pod = cron.spec.jobTemplate.spec.template.spec;
    expect(pod.containers[0].args).toEqual(['admin', 'ledger:check']);
    expect(pod.containers[0].image).toBe(podOf(manifests, 'gateway').containers[0].image);
    expect(pod.containers[0].envFrom).toEqual(podOf(manifests, 'accounts').containers[0].envFrom);
    expect(pod.containers[0].env.filter((e: { valueFrom?: unknown }) => e.valueFrom).map((e: { name: string }) => e.name)).toEqual(['DATABASE_URL']);
    expect(byKind(rendered('switched-off'), 'CronJob')).toEqual([]);
  });

  it('runs as non-root on a read-only root file system, /tmp an emptyDir', () => {
    const manifests = rendered('minimal+hooks');
    const pods = [...CLUSTER_APPS.map((app) => podOf(manifests, app)), byKind(manifests, 'Job')[0].spec.template.spec, byKind(manifests, 'CronJob')[0].spec.jobTemplate.spec.template.spec];
    for (const pod of pods) {
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      expect(pod.containers[0].securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
      expect(pod.containers[0].volumeMounts).toEqual([{ name: 'tmp', mountPath: '/tmp' }]);
      expect(pod.volumes).toEqual([{ name: 'tmp', emptyDir: {} }]);
    }
  });

  it('switches HPAs, PDBs, the migration Job and the ServiceAccount off by values, and the ServiceMonitor on', () => {
    const off = rendered('switched-off');
    expect(byKind(off, 'HorizontalPodAutoscaler').concat(byKind(off, 'PodDisruptionBudget'), byKind(off, 'ServiceAccount'))).toEqual([]);
    expect(Object.fromEntries(byKind(off, 'Deployment').map((d) => [d.metadata.labels!['app.kubernetes.io/component'], d.spec.replicas]))).toEqual(
      Object.fromEntries(CLUSTER_APPS.map((app) => [app, app === 'gateway' ? 3 : 1])),
    );
    expect(podOf(off, 'gateway').serviceAccountName).toBe('default');

    const full = rendered('full');
    const [monitor] = byKind(full, 'ServiceMonitor');
    expect(monitor.metadata.labels).toMatchObject({ release: 'prometheus' });
    expect(monitor.spec.endpoints.map((e: { port: string; path: string }) => `${e.port}${e.path}`)).toEqual(['ops/metrics']); // every app's, the gateway's too
    expect(byKind(full, 'PodDisruptionBudget').find((p) => p.metadata.name.endsWith('-payments'))!.spec).toMatchObject({ minAvailable: 1 });
    expect(byKind(full, 'HorizontalPodAutoscaler').find((h) => h.metadata.name.endsWith('-gateway'))!.spec.maxReplicas).toBe(12);
  });

  it('ships NetworkPolicies: a service\'s RPC port only from the gateway and the apps whose code calls it, ops ports only from monitoring', () => {
    expect(SECRET_HASH_KEY_APPS).toEqual(CLUSTER_APPS); // every app signs or checks RPC under the key
    expect(RPC_CALLS.gateway).toEqual(CLUSTER_APPS.filter((a) => a !== 'gateway'));
    for (const set of ['minimal', 'full'] as const) {
      const manifests = rendered(set);
      const policies = byKind(manifests, 'NetworkPolicy');
      const componentOf = (selector: any) => selector?.matchLabels?.['app.kubernetes.io/component'];
      expect(policies.map((p) => componentOf(p.spec.podSelector)).sort()).toEqual(CLUSTER_APPS);
      for (const policy of policies) {
        const app = componentOf(policy.spec.podSelector);
        // The policy selects exactly that app's pods, as its Deployment labels them.
        expect(policy.spec.podSelector).toEqual(deploymentOf(manifests, app).spec.selector);
        expect(policy.spec.policyTypes).toEqual(['Ingress']);
        const rules = Object.fromEntries(policy.spec.ingress.map((rule: any) => [rule.ports.map((p: any) => p.port).join(','), rule.from]));
        expect(Object.keys(rules).sort()).toEqual(app === 'gateway' ? ['http', 'ops'] : ['ops', 'rpc']);
        const monitoring = [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } }, podSelector: {} }];
        expect({ app, ops: rules.ops }).toEqual({ app, ops: monitoring });
        if (app === 'gateway') {
          expect(rules.http).toBeUndefined(); // the API: from anywhere by default
          continue;
        }
        const callers = CLUSTER_APPS.filter((caller) => RPC_CALLS[caller].includes(app));
        expect({ app, rpcFrom: rules.rpc.map((peer: any) => componentOf(peer.podSelector)).sort() }).toEqual({ app, rpcFrom: callers });
        for (const peer of rules.rpc) expect(Object.keys(peer)).toEqual(['podSelector']); // this namespace, this release
        // Each named port is one the pod declares.
        const declared = podOf(manifests, app).containers[0].ports.map((p: { name: string }) => p.name);
        expect(declared).toEqual(expect.arrayContaining(['rpc', 'ops']));
      }
    }
    expect(byKind(rendered('switched-off'), 'NetworkPolicy')).toEqual([]);
  });

  it.each([
    ['wrong-type', /appDefaults\/replicaCount/],
    ['unknown-key', /additional propert(y|ies) 'replicas'/],
    ['no-database', /\/database.*missing property 'existingSecret'/s],
    ['no-kafka', /\/kafka\/brokers.*minItems|\/kafka\/brokers.*minimum 1 items/s],
    ['literal-secret', /\/database.*additional propert(y|ies) 'url'/s],
  ])('values.schema.json refuses the %s value set', (name, why) => {
    expect(refusal(name)).toMatch(/values don't meet the specifications of the schema/);
    expect(refusal(name)).toMatch(why);
  });

  it('the validator refuses a rendered object made invalid, and an object it has no schema for', async () => {
    const deployment = structuredClone(deploymentOf(rendered('minimal'), 'payments'));
    expect(await schemaViolation(deployment)).toBeUndefined();
    deployment.spec.template.spec.containers[0].ports[0].containerPort = 'rpc';
    expect(await schemaViolation(deployment)).toMatch(/containerPort must be integer/);
    delete deployment.spec.template.spec.containers;
    expect(await schemaViolation(deployment)).toMatch(/must have required property '?containers'?/);
    expect(await schemaViolation({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } })).toMatch(/no API schema/);
    expect(await schemaViolation({ apiVersion: 'apps/v1', kind: 'Widget', metadata: { name: 'w' } })).toMatch(/no API schema/);
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

function ciValues(set: string): Record<string, any> {
  return parse(readFileSync(valuesFile(set), 'utf8'));
}

function copyChart(to: string): string {
  cpSync(CHART, to, { recursive: true });
  return to;
}

/** Helm's merge of a values file over values.yaml: maps merge key by key, anything else replaces. */
function merge(base: any, over: any): any {
  if (typeof base !== 'object' || base === null || Array.isArray(base) || typeof over !== 'object' || over === null || Array.isArray(over)) return over;
  const out = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = k in base ? merge(base[k], v) : v;
  return out;
}

function byKind(manifests: Manifest[], kind: string): Manifest[] {
  return manifests.filter((m) => m.kind === kind);
}

function deploymentOf(manifests: Manifest[], app: string): Manifest {
  const found = byKind(manifests, 'Deployment').find((d) => d.metadata.labels?.['app.kubernetes.io/component'] === app);
  if (!found) throw new Error(`no Deployment for ${app}`);
  return found;
}

function podOf(manifests: Manifest[], app: string): any {
  return deploymentOf(manifests, app).spec.template.spec;
}

function configMap(manifests: Manifest[]): Manifest {
  const maps = byKind(manifests, 'ConfigMap');
  expect(maps).toHaveLength(1);
  return maps[0];
}

/** The configuration an app process derives from what the chart gives it, parsed by the app's own loadConfig. */
function clusterConfig(manifests: Manifest[]): RuntimeConfig {
  for (const d of byKind(manifests, 'Deployment')) expect(d.spec.template.spec.containers[0].envFrom).toEqual([{ configMapRef: { name: configMap(manifests).metadata.name } }]);
  return loadConfig(configMap(manifests).data);
}

/** Environment variables the chart sets on a Deployment's container (the ConfigMap comes in through envFrom). */
function chartEnv(deployment: Manifest): { name: string }[] {
  return deployment.spec.template.spec.containers[0].env ?? [];
}

function portOf(service: Manifest, name: string): number {
  return service.spec.ports.find((p: { name: string }) => p.name === name).port;
}

/** The variables of the README configuration table; `A_ID` / `_SECRET` in one cell names A_ID and A_SECRET. */
function readmeVariables(): string[] {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1));
  const names: string[] = [];
  for (const row of table.split('\n').filter((l) => l.startsWith('| `'))) {
    let previous = '';
    for (const [, name] of row.split('|')[1].matchAll(/`([A-Z_]+)`/g)) {
      const full = name.startsWith('_') ? previous.replace(/_[A-Z]+$/, name) : name;
      names.push(full);
      previous = full;
    }
  }
  return [...new Set(names)];
}
