import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readManifests, schemaErrors, type Manifest } from './support/kubernetes.js';

// No cluster runs on these machines: the manifests are checked against the Kubernetes API schema
// (kubernetes-models), and against what issue 15 asks of them, here.
const FOLDER = 'deploy/kubernetes';
const manifests = readManifests(FOLDER);

const find = (kind: string, name: string): Manifest => {
  const found = manifests.find((m) => m.kind === kind && m.name === name);
  if (!found) throw new Error(`no ${kind} named ${name} in ${FOLDER}; have: ${manifests.map((m) => `${m.kind}/${m.name}`).join(', ')}`);
  return found;
};

interface Container {
  name: string;
  env?: Array<{ name: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }>;
  readinessProbe?: { httpGet?: { path: string } };
  livenessProbe?: { httpGet?: { path: string } };
}
interface PodTemplate {
  metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
  spec: { runtimeClassName?: string; containers: Container[] };
}
const podOf = (deployment: Manifest) => (deployment.body.spec as { template: PodTemplate }).template;
const mainContainer = (deployment: Manifest) => podOf(deployment).spec.containers.find((c) => c.name === deployment.name)!;

describe('deploy/kubernetes', () => {
  it('every manifest validates against the Kubernetes API schema', async () => {
    expect(manifests.length).toBeGreaterThan(10);
    const errors = (await Promise.all(manifests.map(schemaErrors))).filter(Boolean);
    expect(errors, errors.join('\n')).toEqual([]);
    console.info(`validated: ${manifests.map((m) => `${m.file} ${m.apiVersion} ${m.kind}/${m.name}`).join('\n  ')}`);
  });

  it('the validator bites: a broken copy fails, and so does a kind it has no schema for', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'k8s-broken-'));
    try {
      cpSync(FOLDER, dir, { recursive: true });
      const api = path.join(dir, 'api.yaml');
      writeFileSync(
        api,
        readFileSync(api, 'utf8').replace('containerPort: 8080', "containerPort: 'eighty'").replace('minReplicas: 2', 'minReplicas: two'),
      );
      writeFileSync(
        path.join(dir, 'monitor.yaml'),
        'apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: { name: api }\n',
      );
      const errors = (await Promise.all(readManifests(dir).map(schemaErrors))).filter(Boolean);
      expect(errors.join('\n')).toMatch(/Deployment\/api: .*containerPort must be integer/);
      expect(errors.join('\n')).toMatch(/HorizontalPodAutoscaler\/api: .*minReplicas must be integer/);
      expect(errors.join('\n')).toMatch(/monitor\.yaml: no schema for apiVersion monitoring\.coreos\.com\/v1/);
      expect(errors).toHaveLength(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('has what the issue asks: HPA, gVisor runner, probes, PDBs, Services, secrets, scrape annotations', () => {
    const api = find('Deployment', 'api');
    const runner = find('Deployment', 'runner');
    const hpa = find('HorizontalPodAutoscaler', 'api').body.spec as { scaleTargetRef: { kind: string; name: string } };
    expect(hpa.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'api' });
    const runtimeClass = find('RuntimeClass', podOf(runner).spec.runtimeClassName ?? '(none)');
    expect(runtimeClass.body.handler).toBe('runsc');
    for (const deployment of [api, runner]) {
      const container = mainContainer(deployment);
      expect(container.readinessProbe?.httpGet?.path).toBe('/readyz');
      expect(container.livenessProbe?.httpGet?.path).toBe('/healthz');
      expect(podOf(deployment).metadata.annotations).toMatchObject({ 'prometheus.io/scrape': 'true', 'prometheus.io/path': '/metrics' });
      find('Service', deployment.name);
      find('PodDisruptionBudget', deployment.name);
    }
    const secret = find('Secret', 'code-runner').body.stringData as Record<string, string>;
    expect(Object.keys(secret).sort()).toEqual(['DATABASE_URL', 'REDIS_URL', 'RUNNER_TOKEN', 'SESSION_SECRET']);
    const fromSecret = (deployment: Manifest) =>
      (mainContainer(deployment).env ?? []).filter((e) => e.valueFrom?.secretKeyRef?.name === 'code-runner').map((e) => e.name);
    expect(fromSecret(api).sort()).toEqual(['DATABASE_URL', 'REDIS_URL', 'RUNNER_TOKEN', 'SESSION_SECRET']);
    expect(fromSecret(runner)).toEqual(['RUNNER_TOKEN']);
  });

  it('lets only api pods reach the runners, and gives runner pods no egress', () => {
    const runnerLabels = podOf(find('Deployment', 'runner')).metadata.labels;
    const apiLabels = podOf(find('Deployment', 'api')).metadata.labels;
    type Peer = { podSelector?: { matchLabels: Record<string, string> }; namespaceSelector?: unknown };
    type Policy = {
      podSelector: { matchLabels: Record<string, string> };
      policyTypes: string[];
      ingress?: { from: Peer[] }[];
      egress?: unknown[];
    };
    const onRunners = manifests
      .filter((m) => m.kind === 'NetworkPolicy')
      .map((m) => ({ name: m.name, spec: m.body.spec as Policy }))
      .filter(({ spec }) => Object.entries(spec.podSelector.matchLabels).every(([k, v]) => runnerLabels[k] === v));
    const main = onRunners.find(({ name }) => name === 'runner-ingress-from-api-only')!;
    expect(main.spec.policyTypes.sort()).toEqual(['Egress', 'Ingress']);
    expect(main.spec.egress).toEqual([]);
    expect(main.spec.ingress).toHaveLength(1);
    expect(main.spec.ingress![0].from).toEqual([{ podSelector: { matchLabels: apiLabels } }]);
    // No other policy on the runners opens egress or lets other pods of this namespace in (Prometheus's scrape is the named exception).
    for (const { name, spec } of onRunners.filter((p) => p !== main)) {
      expect(spec.policyTypes, name).toEqual(['Ingress']);
      for (const rule of spec.ingress ?? []) for (const peer of rule.from) expect(peer.namespaceSelector, name).toBeDefined();
    }
  });
});
