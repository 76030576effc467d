import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { compose, COMPOSE_SECRETS } from './support/compose.js';

// No image registry is reachable here, so the fleet cannot be brought up on this machine: the file
// is checked by the compose tool's own config check and against what issue 15 asks of it. The
// topology itself runs, as processes, in test/scale/ (docs/deploy.md).
const FILE = 'deploy/compose.yaml';

interface Service {
  image: string;
  read_only?: boolean;
  privileged?: boolean;
  cap_drop?: string[];
  cap_add?: string[];
  security_opt?: string[];
  group_add?: string[];
  volumes?: Array<string | { source: string; target: string }>;
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
}

/** A volume as `source:target`: docker-compose 1.29 prints the short form, the Compose plugin the long one. */
const mount = (volume: string | { source: string; target: string }) => {
  const [source, target] = typeof volume === 'string' ? volume.split(':') : [volume.source, volume.target];
  return { source, target };
};

const failed = (run: { status: number | null; stdout: string; stderr: string }) => `exit ${run.status}\n${run.stderr}${run.stdout}`;

describe('deploy/compose.yaml', () => {
  it('passes the compose tool’s own config check', async () => {
    const run = await compose(FILE, ['config', '-q'], COMPOSE_SECRETS);
    expect(run.status, failed(run)).toBe(0);
  });

  it('the check bites: a broken copy fails, and so does a start without the secrets', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'compose-broken-'));
    try {
      cpSync('deploy', dir, { recursive: true, filter: (source) => !source.endsWith('.env') });
      const broken = path.join(dir, 'compose.yaml');
      writeFileSync(broken, readFileSync(broken, 'utf8').replace('  read_only: true\n', '  read_only: maybe\n'));
      const run = await compose(broken, ['config', '-q'], COMPOSE_SECRETS);
      expect(run.status, failed(run)).not.toBe(0);
      expect(run.stderr).toMatch(/read_only contains an invalid type|read_only.*boolean/);
      const noSecrets = await compose(FILE, ['config', '-q'], {});
      expect(noSecrets.status, failed(noSecrets)).not.toBe(0);
      expect(noSecrets.stderr).toMatch(/RUNNER_TOKEN|run deploy\/up\.sh/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('brings up what the issue asks: load balancer, two api and two runner nodes, PostgreSQL, Redis, Prometheus, Grafana', async () => {
    const run = await compose(FILE, ['config'], COMPOSE_SECRETS);
    expect(run.status, failed(run)).toBe(0);
    const services = (parse(run.stdout) as { services: Record<string, Service> }).services;
    expect(Object.keys(services).sort()).toEqual([
      'api1',
      'api2',
      'grafana',
      'lb',
      'postgres',
      'prometheus',
      'redis',
      'runner-lb',
      'runner1',
      'runner2',
    ]);
    // The official images users pull (no registry or organisation in front of the name).
    expect([services.postgres.image, services.redis.image, services.lb.image, services['runner-lb'].image]).toEqual([
      'postgres:16',
      'redis:7',
      'nginx:1.27',
      'nginx:1.27',
    ]);
    for (const [name, service] of Object.entries(services)) expect(service.healthcheck?.test, `${name} has no health check`).toBeDefined();
    for (const name of ['runner1', 'runner2']) {
      const runner = services[name];
      expect(runner.environment?.SERVICE_ROLE).toBe('runner');
      expect(runner.read_only, name).toBe(true);
      expect(runner.privileged, name).toBeUndefined();
      expect(runner.cap_drop, name).toEqual(['ALL']);
      expect(runner.cap_add, name).toBeUndefined();
      expect(runner.security_opt, name).toEqual(['no-new-privileges:true']);
      expect(runner.group_add, name).toEqual([COMPOSE_SECRETS.DOCKER_GID]);
      expect(runner.volumes?.map(mount).map((v) => `${v.source}:${v.target}`)).toEqual(['/var/run/docker.sock:/var/run/docker.sock']);
    }
    expect(new Set(['runner1', 'runner2'].map((n) => services[n].environment?.SANDBOX_INSTANCE)).size).toBe(2);
    for (const name of ['api1', 'api2']) {
      expect(services[name].environment).toMatchObject({
        SERVICE_ROLE: 'api',
        RUNNER_URL: 'http://runner-lb:8080',
        REDIS_URL: 'redis://redis:6379',
      });
      expect(services[name].environment?.DATABASE_URL).toMatch(/^postgres:\/\/coderunner:.+@postgres:5432\/coderunner$/);
    }
    // Every file the services mount is in the repository (nginx templates, Prometheus config and rules, Grafana's dashboard).
    const mounted = Object.values(services).flatMap((s) => (s.volumes ?? []).map(mount).filter((v) => v.source.includes('/deploy/')));
    expect(mounted.length).toBeGreaterThanOrEqual(6);
    for (const volume of mounted) expect(existsSync(volume.source), `${volume.source} (mounted at ${volume.target}) is missing`).toBe(true);
  });
});
