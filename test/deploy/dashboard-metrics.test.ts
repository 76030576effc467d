import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Service } from '../../src/service.js';
import { startTestService } from '../support/service.js';
import { exposedNames, metricNames } from './support/promql.js';

const DASHBOARD = 'deploy/grafana/dashboards/code-runner.json';
const RULES = 'deploy/prometheus/rules.yml';
const DATASOURCE = 'deploy/grafana/provisioning/datasources/prometheus.yaml';
/** Series Prometheus makes itself for every target; no /metrics offers them. */
const PROMETHEUS_OWN = new Set(['up']);

interface Panel {
  title: string;
  datasource?: { uid: string };
  targets?: Array<{ expr: string }>;
}

const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: Panel[] };
const rules = (
  parse(readFileSync(RULES, 'utf8')) as { groups: Array<{ rules: Array<{ alert?: string; record?: string; expr: string }> }> }
).groups.flatMap((group) => group.rules);
/** Every query, with where it is. */
const queries = [
  ...dashboard.panels.flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({ where: `${DASHBOARD}: panel "${panel.title}"`, expr: target.expr })),
  ),
  ...rules.map((rule) => ({ where: `${RULES}: ${rule.alert ?? rule.record}`, expr: rule.expr })),
];

let service: Service;
let live: Set<string>;

beforeAll(async () => {
  service = await startTestService({ POOL_MIN_PYTHON: '0', POOL_MIN_NODE: '0' });
  const answer = await fetch(`${service.url}/metrics`);
  const text = await answer.text();
  if (!answer.ok) throw new Error(`GET /metrics answered ${answer.status}: ${text}`);
  live = exposedNames(text);
});

afterAll(async () => {
  await service?.close();
});

describe('the Grafana dashboard and the Prometheus rules', () => {
  it('the name extraction finds metrics and skips functions, labels, keywords and durations', () => {
    expect(
      metricNames(
        'histogram_quantile(0.95, sum by (le, phase) (rate(a_bucket{phase="queue",x=~"b.*"}[5m]))) / on (i) c offset 5m > bool 2',
      ),
    ).toEqual(['a_bucket', 'c']);
    expect(metricNames('max by (kind) (code_runner_outbox_backlog)')).toEqual(['code_runner_outbox_backlog']);
  });

  it('name only metrics that a live service offers at /metrics', () => {
    const named = queries.flatMap(({ where, expr }) => metricNames(expr).map((name) => ({ where, name })));
    expect(new Set(named.map((n) => n.name)).size).toBeGreaterThanOrEqual(10);
    const missing = named.filter(({ name }) => !live.has(name) && !PROMETHEUS_OWN.has(name)).map(({ where, name }) => `${where}: ${name}`);
    expect(missing, `not on the live /metrics (${[...live].sort().join(', ')}):\n${missing.join('\n')}`).toEqual([]);
  });

  it('every panel queries the provisioned Prometheus data source', () => {
    const uid = (parse(readFileSync(DATASOURCE, 'utf8')) as { datasources: Array<{ uid: string }> }).datasources[0].uid;
    for (const panel of dashboard.panels) {
      expect(panel.datasource?.uid, panel.title).toBe(uid);
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
    }
  });
});
