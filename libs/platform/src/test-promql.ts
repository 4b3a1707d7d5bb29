import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parser } from '@prometheus-io/lezer-promql';
import { parse as parseYaml } from 'yaml';

/**
 * Test helpers for the observability files in deploy/: the PromQL their alerts and dashboards run, and the metric
 * names that PromQL needs from the apps. PromQL is parsed with Prometheus' own grammar (@prometheus-io/lezer-promql,
 * the parser of the Prometheus web UI), not with a pattern, so a function name or a label is never taken for a metric.
 */

type SyntaxNode = ReturnType<typeof parser.parse>['topNode'];

export const REPO_ROOT = resolve(__dirname, '../../..');

/** One PromQL expression and where it was found, for messages that point at the file. */
export interface Query {
  where: string;
  expr: string;
}

/** Grafana's built-in interval variables are not PromQL; a duration stands in for them before parsing. */
const GRAFANA_INTERVALS = /\$__(rate_interval|interval|range)\b|\$\{__(rate_interval|interval|range)\}/g;

/**
 * The metric names `expr` selects. Throws on a syntax error (lezer recovers from errors, so error nodes are looked
 * for explicitly) and on a selector whose name cannot be known statically (a `__name__` regex).
 */
export function metricNamesOf(expr: string): string[] {
  const promql = expr.replace(GRAFANA_INTERVALS, '5m');
  const tree = parser.parse(promql);
  const names = new Set<string>();
  const problems: string[] = [];
  tree.iterate({
    enter: (ref) => {
      if (ref.type.isError) problems.push(`syntax error at ${ref.from}: ${JSON.stringify(promql.slice(Math.max(0, ref.from - 10), ref.from + 10))}`);
      if (ref.name === 'VectorSelector') {
        const name = selectorName(ref.node, promql);
        if (name) names.add(name);
        else problems.push(`no static metric name in ${promql.slice(ref.from, ref.to)}`);
      }
    },
  });
  if (problems.length > 0) throw new Error(`${problems.join('; ')} in: ${expr}`);
  return [...names];
}

function selectorName(selector: SyntaxNode, text: string): string | undefined {
  const identifier = selector.getChild('Identifier');
  if (identifier) return text.slice(identifier.from, identifier.to);
  // {__name__="x"}: the name given as an exact label matcher.
  for (const matcher of selector.getChild('LabelMatchers')?.getChildren('UnquotedLabelMatcher') ?? []) {
    const label = matcher.getChild('LabelName');
    const op = matcher.getChild('MatchOp');
    const value = matcher.getChild('StringLiteral');
    if (label && op && value && text.slice(label.from, label.to) === '__name__' && text.slice(op.from, op.to) === '=') {
      return JSON.parse(text.slice(value.from, value.to)) as string;
    }
  }
  return undefined;
}

/** Every `expr` of every rule of every rule group in deploy/prometheus/alerts, with the rule's annotations. */
export function alertRules(dir = join(REPO_ROOT, 'deploy/prometheus/alerts')): (Query & { rule: Record<string, any> })[] {
  return readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .flatMap((file) => {
      const doc = parseYaml(readFileSync(join(dir, file), 'utf8')) as { groups: { name: string; rules: Record<string, any>[] }[] };
      return doc.groups.flatMap((group) =>
        group.rules.map((rule) => ({ where: `${file}: ${group.name}/${rule.alert ?? rule.record}`, expr: String(rule.expr), rule })),
      );
    });
}

/** Every PromQL query of every dashboard in deploy/grafana/dashboards: panel targets (rows nested) and query variables. */
export function dashboardQueries(dir = join(REPO_ROOT, 'deploy/grafana/dashboards')): Query[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .flatMap((file) => {
      const dashboard = JSON.parse(readFileSync(join(dir, file), 'utf8'));
      const panels = (list: any[] = []): any[] => list.flatMap((p) => [p, ...panels(p.panels)]);
      const targets = panels(dashboard.panels).flatMap((p) =>
        (p.targets ?? []).map((t: { expr: string; refId: string }) => ({ where: `${file}: "${p.title}" ${t.refId}`, expr: t.expr })),
      );
      const variables = (dashboard.templating?.list ?? [])
        .filter((v: { type: string }) => v.type === 'query')
        .map((v: { name: string; query: string | { query: string } }) => ({ where: `${file}: variable $${v.name}`, expr: variableQuery(typeof v.query === 'string' ? v.query : v.query.query) }));
      return [...targets, ...variables];
    });
}

/** Grafana's Prometheus variable functions wrap PromQL (or a bare metric): `label_values(metric, label)`, `query_result(expr)`. */
function variableQuery(query: string): string {
  const labelValues = /^label_values\((.+),\s*[A-Za-z_][A-Za-z0-9_]*\)$/.exec(query.trim());
  if (labelValues) return labelValues[1];
  const queryResult = /^query_result\((.+)\)$/.exec(query.trim());
  return queryResult ? queryResult[1] : query;
}

/**
 * The metric names a Prometheus text exposition declares (`# TYPE` lines), with the series names Prometheus stores
 * for them: a histogram `x` is queried as `x_bucket`, `x_sum`, `x_count`; a summary as `x`, `x_sum`, `x_count`.
 * A declared metric with no sample yet (a labelled metric nothing has happened to) counts: it is there to query.
 */
export function exposedNames(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const match of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    const [, name, type] = match;
    names.add(name);
    if (type === 'histogram') ['_bucket', '_sum', '_count'].forEach((s) => names.add(`${name}${s}`));
    if (type === 'summary') ['_sum', '_count'].forEach((s) => names.add(`${name}${s}`));
  }
  return names;
}

/** Queries naming a metric not in `exposed`, as `where: metric` lines (empty when every name is served). */
export function unservedMetrics(queries: readonly Query[], exposed: ReadonlySet<string>, generatedByPrometheus: readonly string[] = []): string[] {
  return queries.flatMap((q) => metricNamesOf(q.expr).filter((n) => !exposed.has(n) && !generatedByPrometheus.includes(n)).map((n) => `${q.where}: ${n}`));
}

export const runbookExists = (path: string): boolean => /^docs\/runbooks\/[a-z0-9-]+\.md$/.test(path) && existsSync(join(REPO_ROOT, path));
