import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { http } from '@payments/testing';
import { alertRules, dashboardQueries, exposedNames, metricNamesOf, REPO_ROOT, runbookExists, unservedMetrics } from './test-promql';
import { startTestPlatform, TestPlatform } from './test-platform';

/** Series Prometheus writes itself for every scrape target: no app serves them. */
const GENERATED_BY_PROMETHEUS = ['up'];

/**
 * The Grafana dashboards and Prometheus alerts in deploy/ against the platform as it runs: every metric a query
 * names must be served by some app's /metrics. A renamed metric, or a typo in a query, fails here rather than as a
 * silent empty panel or an alert that can never fire.
 */
describe('dashboards and alert rules (deploy/) against a running platform', () => {
  let t: TestPlatform;
  let exposed: Set<string>;
  const rules = alertRules();
  const dashboards = dashboardQueries();

  beforeAll(async () => {
    t = await startTestPlatform();
    const endpoints = [`http://127.0.0.1:${t.platform.ops.port}/metrics`]; // every app's registry, as npm start serves them
    exposed = new Set();
    for (const url of endpoints) {
      const scrape = await http<string>('GET', url);
      expect(scrape.status).toBe(200);
      exposedNames(scrape.body).forEach((name) => exposed.add(name));
    }
  });
  afterAll(() => t?.stop());

  it('finds queries to check: both dashboards and every rule group', () => {
    expect(new Set(dashboards.map((q) => q.where.split(':')[0]))).toEqual(new Set(['payments-api.json', 'payments-async.json']));
    expect(dashboards.length).toBeGreaterThan(30);
    expect(rules.length).toBeGreaterThan(15);
  });

  it('every metric a dashboard or an alert names is served by /metrics', () => {
    expect(unservedMetrics([...dashboards, ...rules], exposed, GENERATED_BY_PROMETHEUS)).toEqual([]);
  });

  it('catches a misspelt metric and a broken query (the check above can fail)', () => {
    const typo = { where: 'inline example', expr: 'sum by (operation) (rate(payments_http_request_total{status_class="5xx"}[$__rate_interval]))' };
    expect(unservedMetrics([typo], exposed)).toEqual(['inline example: payments_http_request_total']);
    expect(unservedMetrics([{ ...typo, expr: typo.expr.replace('request_total', 'requests_total') }], exposed)).toEqual([]);
    const histogram = 'histogram_quantile(0.99, sum by (le) (rate(payments_rpc_server_duration_seconds_bucket[5m])))';
    expect(unservedMetrics([{ where: 'bucket', expr: histogram }], exposed)).toEqual([]);
    expect(unservedMetrics([{ where: 'bucket', expr: histogram.replace('_bucket', '_buckets') }], exposed)).toEqual(['bucket: payments_rpc_server_duration_seconds_buckets']);
    // Functions, labels, aggregation names and strings are not metrics; a name given as __name__ is.
    expect(metricNamesOf('label_replace(time() - max by (pool) (x{a="payments_not_a_metric"} offset 5m), "b", "$1", "a", "(.*)")')).toEqual(['x']);
    expect(metricNamesOf('{__name__="payments_timers_due", service="quoting"}')).toEqual(['payments_timers_due']);
    expect(() => metricNamesOf('sum(rate(payments_http_requests_total[5m])')).toThrow(/syntax error/);
    expect(() => metricNamesOf('{__name__=~"payments_.*"}')).toThrow(/no static metric name/);
  });

  it('every alert has a severity, a summary and a runbook that exists in docs/runbooks', () => {
    const problems = rules.flatMap(({ where, rule }) => [
      ...(['critical', 'warning'].includes(rule.labels?.severity) ? [] : [`${where}: severity`]),
      ...(rule.annotations?.summary ? [] : [`${where}: summary`]),
      ...(runbookExists(rule.annotations?.runbook_url ?? '') ? [] : [`${where}: runbook_url ${rule.annotations?.runbook_url}`]),
    ]);
    expect(problems).toEqual([]);
    expect(runbookExists('docs/runbooks/no-such-runbook.md')).toBe(false);
  });

  it('the provisioning files point Grafana at the dashboards and Prometheus at the rules', () => {
    const provider = parseYaml(readFileSync(join(REPO_ROOT, 'deploy/grafana/provisioning/dashboards/payments-platform.yaml'), 'utf8'));
    expect(provider).toMatchObject({ apiVersion: 1, providers: [{ type: 'file', options: { path: expect.any(String) } }] });
    const prometheus = parseYaml(readFileSync(join(REPO_ROOT, 'deploy/prometheus/prometheus.yml'), 'utf8'));
    expect(prometheus.rule_files).toEqual(['alerts/*.rules.yaml']);
    expect(prometheus.scrape_configs.every((c: { job_name: string }) => c.job_name.includes('payments'))).toBe(true); // PaymentsAppDown's job selector
  });
});
