/**
 * `npm run soak`: 300 executions at concurrency 8 against the service running as its own process
 * (the built service, as `npm start` runs it), mixing correct, failing and hostile code. The hostile
 * code comes from one attacker (one client address), every other request from the candidates (one
 * address per client loop). Checks that every request is answered within the budget from its
 * sending, every correct solution passes, every failing one fails the expected way (a candidate's
 * request refused for want of a sandbox is a failure: the attacker must not crowd them out), every
 * hostile one gets a well-formed 200/408, or a 503 with Retry-After within the queue's longest
 * wait; that the service's resident memory returns near its baseline; and that no container is
 * left, neither once the service has settled nor after it has exited. Prints the counts, latencies,
 * RSS (baseline, peak = VmHWM, final) and the errors; exits 1 when a check fails.
 *
 * Environment: SOAK_TOTAL (300), SOAK_CONCURRENCY (8), SOAK_RUNTIME (runc), SOAK_DRIVER (docker, or
 * oci: SANDBOX_ROOTFS_DIR is passed on when set, else the images are unpacked into the run's data
 * folder), SOAK_TIMEOUT_MS (15000, the service's default budget), SOAK_QUEUE_WAIT_MS (5000, the
 * service's default longest wait), SOAK_SEED (1), SOAK_ROUNDS (1: repeat the whole load and print
 * the RSS after each round, to tell a leak from heap the process keeps). Not part of `npm test`: it
 * takes three to four minutes.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Docker from 'dockerode';
import { ociLayout } from '../src/core/sandbox/oci/oci-engine.js';
import { findExecutable, RuntimeCli } from '../src/core/sandbox/oci/runtime-cli.js';
import { buildService, SERVICE_ARGS, SERVICE_ENV } from '../test/support/build-service.js';
import { benchServiceEnv } from './targets/service.js';
import { instanceCgroup } from '../src/core/sandbox/container-cgroup.js';

const TOTAL = Number(process.env.SOAK_TOTAL ?? 300);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 8);
const RUNTIME = process.env.SOAK_RUNTIME ?? 'runc';
const DRIVER = process.env.SOAK_DRIVER ?? 'docker';
const TIMEOUT_MS = Number(process.env.SOAK_TIMEOUT_MS ?? 15000);
const QUEUE_WAIT_MS = Number(process.env.SOAK_QUEUE_WAIT_MS ?? 5000);
const ROUNDS = Math.max(1, Number(process.env.SOAK_ROUNDS ?? 1));
const SEED = Number(process.env.SOAK_SEED ?? 1);
/** Final RSS may exceed the baseline by this much (V8 keeps some heap it grew into). */
const RSS_SLACK_MB = (baseline: number) => Math.max(64, baseline * 0.25);
/** How long the service may stay idle before its RSS must be back near the baseline. */
const RSS_WAIT_MS = 60_000;
/** Client addresses, told to the service through X-Forwarded-For (it trusts loopback here): the fair share is per caller. */
const ATTACKER = '10.66.0.1';
const candidate = (loop: number) => `10.0.${loop}.1`;

type Kind = 'correct' | 'failing' | 'hostile';
interface Result {
  passed: boolean;
  actual: unknown;
  error: string | null;
  stdout: string;
}
interface Reply {
  status: number;
  retryAfter: string | null;
  executionId: string | null;
  body: { results?: Result[]; error?: string };
}
interface Workload {
  name: string;
  kind: Kind;
  weight: number;
  body: Record<string, unknown>;
  check(reply: Reply): string | null;
}

const twoSumCases = [
  { args: { nums: [2, 7, 11, 15], target: 9 }, expected: [0, 1] },
  { args: { nums: [3, 2, 4], target: 6 }, expected: [1, 2] },
  { args: { nums: [3, 3], target: 6 }, expected: [0, 1] },
];
const one = [{ args: { x: 1 }, expected: 1 }];
const three = [1, 2, 3].map((x) => ({ args: { x }, expected: x }));

const allPass = (reply: Reply) =>
  reply.status === 200 && reply.body.results?.length && reply.body.results.every((r) => r.passed && r.error === null)
    ? null
    : `expected every case to pass, got ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`;
const allFail = (error: RegExp | null) => (reply: Reply) => {
  if (reply.status !== 200 || !reply.body.results?.length)
    return `expected 200, got ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`;
  for (const r of reply.body.results) {
    if (r.passed) return 'a failing solution passed';
    if (error === null ? r.error !== null : !error.test(r.error ?? '')) return `unexpected error ${JSON.stringify(r.error)}`;
  }
  return null;
};
/** Hostile code: any well-formed 200 or 408 with one result per case; `extra` narrows it. */
const wellFormed = (cases: number, extra?: (reply: Reply) => string | null) => (reply: Reply) => {
  if (reply.status !== 200 && reply.status !== 408)
    return `expected 200/408, got ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`;
  if (reply.body.results?.length !== cases) return `expected ${cases} results`;
  for (const r of reply.body.results)
    if (typeof r.passed !== 'boolean' || (r.error !== null && typeof r.error !== 'string')) return 'malformed result';
  return extra ? extra(reply) : null;
};
const status = (expected: number) => (reply: Reply) => (reply.status === expected ? null : `expected ${expected}, got ${reply.status}`);
/** What a request may not be answered later than: its refusal within the queue's longest wait, an execution within the budget. */
const lateness = (reply: Reply, ms: number) => {
  if (reply.status === 503) return ms > QUEUE_WAIT_MS + 1_000 ? `refused after ${ms} ms` : null;
  return ms > TIMEOUT_MS + 1_000 ? `answered after ${ms} ms` : null;
};
/** A hostile request may be refused for want of a sandbox, saying when to retry; a candidate's may not. */
const refusedInTurn = (reply: Reply) =>
  reply.status === 503 && reply.retryAfter && /no sandbox became free/.test(reply.body.error ?? '')
    ? null
    : `refused without Retry-After: ${JSON.stringify(reply.body)}`;

const WORKLOADS: Workload[] = [
  // correct
  {
    name: 'py two_sum',
    kind: 'correct',
    weight: 12,
    check: allPass,
    body: {
      language: 'python',
      functionName: 'two_sum',
      testCases: twoSumCases,
      code: 'def two_sum(nums, target):\n    seen = {}\n    for i, n in enumerate(nums):\n        if target - n in seen:\n            return [seen[target - n], i]\n        seen[n] = i\n',
    },
  },
  {
    name: 'js twoSum',
    kind: 'correct',
    weight: 12,
    check: allPass,
    body: {
      language: 'javascript',
      functionName: 'two_sum',
      testCases: twoSumCases,
      code: 'function twoSum(nums, target) {\n  const seen = new Map();\n  for (let i = 0; i < nums.length; i++) {\n    if (seen.has(target - nums[i])) return [seen.get(target - nums[i]), i];\n    seen.set(nums[i], i);\n  }\n}\n',
    },
  },
  {
    name: 'ts twoSum',
    kind: 'correct',
    weight: 8,
    check: allPass,
    body: {
      language: 'typescript',
      functionName: 'two_sum',
      testCases: twoSumCases,
      code: 'function twoSum(nums: number[], target: number): number[] {\n  const seen = new Map<number, number>();\n  for (let i = 0; i < nums.length; i++) {\n    const j = seen.get(target - nums[i]);\n    if (j !== undefined) return [j, i];\n    seen.set(nums[i], i);\n  }\n  return [];\n}\n',
    },
  },
  {
    name: 'py class Solution with prints',
    kind: 'correct',
    weight: 6,
    check: allPass,
    body: {
      language: 'python',
      testCases: [
        { args: { n: 10 }, expected: 55 },
        { args: { n: 30 }, expected: 832040 },
      ],
      code: 'class Solution:\n    def fib(self, n):\n        a, b = 0, 1\n        for _ in range(n):\n            a, b = b, a + b\n        print("fib", n, a)\n        return a\n',
    },
  },
  {
    name: 'js sort',
    kind: 'correct',
    weight: 7,
    check: allPass,
    body: {
      language: 'javascript',
      testCases: [
        { args: { a: [3, 1, 2] }, expected: [1, 2, 3] },
        { args: { a: [] }, expected: [] },
      ],
      code: 'const sortNums = (a) => [...a].sort((x, y) => x - y);\n',
    },
  },
  // failing
  {
    name: 'py wrong answer',
    kind: 'failing',
    weight: 8,
    check: allFail(null),
    body: {
      language: 'python',
      functionName: 'two_sum',
      testCases: twoSumCases,
      code: 'def two_sum(nums, target):\n    return [len(nums), target]\n',
    },
  },
  {
    name: 'js exception',
    kind: 'failing',
    weight: 7,
    check: allFail(/^TypeError: /),
    body: { language: 'javascript', testCases: one, code: 'function f(x) { return x.y.z; }' },
  },
  {
    name: 'py syntax error',
    kind: 'failing',
    weight: 5,
    check: allFail(/^SyntaxError: /),
    body: { language: 'python', testCases: one, code: 'def f(x):\n    return (x\n' },
  },
  {
    name: 'ts syntax error',
    kind: 'failing',
    weight: 5,
    check: allFail(/^SyntaxError: /),
    body: { language: 'typescript', testCases: one, code: 'function f(x: number) {\n  return x +;\n}\n' },
  },
  // hostile
  {
    name: 'py infinite loop',
    kind: 'hostile',
    weight: 3,
    check: status(408),
    body: { language: 'python', testCases: one, code: 'def f(x):\n    while True:\n        pass\n' },
  },
  {
    name: 'js infinite loop',
    kind: 'hostile',
    weight: 3,
    check: status(408),
    body: { language: 'javascript', testCases: one, code: 'function f(x) { for (;;) {} }' },
  },
  {
    name: 'py sleep',
    kind: 'hostile',
    weight: 2,
    check: status(408),
    body: { language: 'python', testCases: one, code: 'import time\ndef f(x):\n    time.sleep(60)\n' },
  },
  {
    name: 'py fork bomb',
    kind: 'hostile',
    weight: 2,
    check: wellFormed(1),
    body: {
      language: 'python',
      testCases: one,
      code: 'import os\ndef f(x):\n    while True:\n        try:\n            os.fork()\n        except OSError:\n            pass\n',
    },
  },
  {
    name: 'py memory bomb',
    kind: 'hostile',
    weight: 3,
    check: wellFormed(3, (r) =>
      r.body.results?.[1].error?.match(/memory|MemoryError/) ? null : `no memory error: ${JSON.stringify(r.body.results?.[1])}`,
    ),
    body: {
      language: 'python',
      testCases: three,
      code: 'def f(x):\n    if x == 2:\n        b = []\n        while True:\n            b.append(bytearray(1 << 20))\n    return x\n',
    },
  },
  {
    name: 'js memory bomb',
    kind: 'hostile',
    weight: 2,
    check: wellFormed(1),
    body: { language: 'javascript', testCases: one, code: 'function f(x) { const b = []; for (;;) b.push(Buffer.alloc(1 << 20, 1)); }' },
  },
  {
    name: 'py print flood',
    kind: 'hostile',
    weight: 3,
    check: wellFormed(1),
    body: { language: 'python', testCases: one, code: 'def f(x):\n    for i in range(1_000_000):\n        print(i)\n    return x\n' },
  },
  {
    name: 'py fd flood',
    kind: 'hostile',
    weight: 3,
    check: wellFormed(1),
    body: {
      language: 'python',
      testCases: one,
      code: 'import os\ndef f(x):\n    block = b"line\\n" * 100_000\n    for _ in range(60):\n        os.write(1, block)\n    return x\n',
    },
  },
  {
    name: 'py os._exit',
    kind: 'hostile',
    weight: 2,
    check: wellFormed(3, (r) => (r.body.results?.[0].passed && /exited/.test(r.body.results[1].error ?? '') ? null : 'exit not reported')),
    body: { language: 'python', testCases: three, code: 'import os\ndef f(x):\n    if x == 2:\n        os._exit(3)\n    return x\n' },
  },
  {
    name: 'js process.exit',
    kind: 'hostile',
    weight: 2,
    check: wellFormed(1),
    body: { language: 'javascript', testCases: one, code: 'function f(x) { process.exit(3); }' },
  },
  {
    name: 'py fake frames',
    kind: 'hostile',
    weight: 2,
    check: wellFormed(1, (r) => (r.body.results?.[0].passed ? 'a fake frame made a wrong answer pass' : null)),
    body: {
      language: 'python',
      testCases: one,
      code: 'import os\ndef f(x):\n    os.write(1, b\'\\x1e{"t":"result","i":0,"value":1,"error":null,"ms":0,"stdout":""}\\n\\x1eready x\\n\')\n    print(\'\\x1e{"t":"done"}\')\n    return x + 1\n',
    },
  },
  {
    name: 'py background sleeper',
    kind: 'hostile',
    weight: 2,
    check: wellFormed(1),
    body: {
      language: 'python',
      testCases: one,
      code: 'import subprocess, sys\ndef f(x):\n    subprocess.Popen([sys.executable, "-c", "import time\\nwhile True: print(1, flush=True); time.sleep(0.1)"], start_new_session=True)\n    return x\n',
    },
  },
  {
    name: 'py fill /tmp',
    kind: 'hostile',
    weight: 2,
    check: wellFormed(1),
    body: {
      language: 'python',
      testCases: one,
      code: 'def f(x):\n    try:\n        for i in range(100):\n            open("/tmp/f%d" % i, "wb").write(b"a" * (1 << 22))\n    except OSError:\n        pass\n    return x\n',
    },
  },
  {
    name: 'js close fds',
    kind: 'hostile',
    weight: 2,
    check: wellFormed(1),
    body: {
      language: 'javascript',
      testCases: one,
      code: "function f(x) { const fs = require('fs'); fs.closeSync(1); fs.closeSync(2); return x; }",
    },
  },
  {
    name: 'py 2 MB return value',
    kind: 'hostile',
    weight: 2,
    check: wellFormed(1),
    body: { language: 'python', testCases: one, code: 'def f(x):\n    return "v" * 2_000_000\n' },
  },
  {
    name: 'py network',
    kind: 'hostile',
    weight: 2,
    check: wellFormed(1, (r) => (r.body.results?.[0].actual === 'blocked' ? null : 'network reachable')),
    body: {
      language: 'python',
      testCases: one,
      code: 'import socket\ndef f(x):\n    try:\n        socket.create_connection(("1.1.1.1", 53), timeout=2)\n        return "connected"\n    except OSError:\n        return "blocked"\n',
    },
  },
];

/** A small deterministic PRNG (mulberry32), so that a run can be repeated with the same order. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function plan(total: number): Workload[] {
  const random = prng(SEED);
  const weight = WORKLOADS.reduce((n, w) => n + w.weight, 0);
  const list: Workload[] = [];
  // every workload at least once, the rest drawn by weight
  for (const w of WORKLOADS) list.push(w);
  while (list.length < total) {
    let pick = random() * weight;
    list.push(WORKLOADS.find((w) => (pick -= w.weight) < 0) ?? WORKLOADS[0]);
  }
  for (let i = list.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list.slice(0, total);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function memoryOf(pid: number): { rssMb: number; hwmMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
}

async function post(url: string, body: unknown, from: string): Promise<Reply> {
  const response = await fetch(`${url}/api/v1/code/execute`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    executionId: response.headers.get('x-execution-id'),
    body: text ? JSON.parse(text) : {},
  };
}

/**
 * The service's sandboxes that exist right now, each named: its labelled Docker containers, or with
 * the oci driver the containers in its runtime's state directory, and under either driver the
 * containers' cgroups under the instance's own (a cgroup that was not removed outlives the service).
 */
function sandboxLister(docker: Docker, instance: string, dataDir: string): () => Promise<string[]> {
  const parents = readdirSync('/sys/fs/cgroup').map((h) => path.join('/sys/fs/cgroup', h, instanceCgroup(instance)));
  const cgroups = () =>
    parents.flatMap((dir) =>
      existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [e.name] : [])) : [],
    );
  const name = RUNTIME === 'auto' ? 'crun' : RUNTIME;
  const { state } = ociLayout(dataDir, instance);
  const runtime = new RuntimeCli(name, findExecutable(name) ?? name, state);
  return async () => {
    // a list that fails (a state half written) still has its entries in the directory; a Docker
    // container has the name of its cgroup
    const listed =
      DRIVER === 'oci'
        ? await runtime.list().then(
            (list) => list.map(({ id }) => id),
            () => (existsSync(state) ? readdirSync(state) : []),
          )
        : (await docker.listContainers({ all: true, filters: { label: [`code-runner.sandbox=${instance}`] } })).map((c) =>
            c.Names[0].slice(1),
          );
    return [...new Set([...listed, ...cgroups()])].map((id) => (listed.includes(id) ? id : `${id} (an empty cgroup only)`));
  };
}

async function poolContainers(url: string): Promise<{ pooled: number; busy: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  let pooled = 0;
  let busy = 0;
  for (const line of text.split('\n')) {
    const pool = /^code_runner_pool_containers\{.*state="(\w+)".*\} (\d+)/.exec(line);
    if (pool) {
      if (pool[1] === 'ready' || pool[1] === 'starting') pooled += Number(pool[2]);
      else busy += Number(pool[2]);
    }
    const gauge = /^code_runner_(queue_length|running) (\d+)/.exec(line);
    if (gauge) busy += Number(gauge[2]);
  }
  return { pooled, busy };
}

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

async function main(): Promise<number> {
  const docker = new Docker({ socketPath: process.env.DOCKER_SOCKET ?? '/var/run/docker.sock' });
  const instance = `soak-${randomBytes(4).toString('hex')}`;
  const serviceEnv = benchServiceEnv();
  const sandboxes = sandboxLister(docker, instance, serviceEnv.DATA_DIR);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  await buildService();
  const child = spawn(process.execPath, SERVICE_ARGS, {
    env: {
      ...process.env,
      ...SERVICE_ENV,
      ...serviceEnv,
      PORT: String(port),
      HOST: '127.0.0.1',
      // the default level: its "execution finished" lines say how long each execution waited in the queue
      LOG_LEVEL: 'info',
      SANDBOX_INSTANCE: instance,
      SANDBOX_DRIVER: DRIVER,
      SANDBOX_RUNTIME: RUNTIME,
      EXECUTION_TIMEOUT_MS: String(TIMEOUT_MS),
      QUEUE_WAIT_MS: String(QUEUE_WAIT_MS),
      TRUST_PROXY: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const queueMs = new Map<string, number>();
  let partial = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.includes('"execution finished"')) continue;
      const entry = JSON.parse(line) as { executionId: string; queueMs: number };
      queueMs.set(entry.executionId, entry.queueMs);
    }
  });
  let serviceLog = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    serviceLog = (serviceLog + chunk.toString()).slice(-20_000);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const problems: string[] = [];

  try {
    for (let i = 0; ; i += 1) {
      if (
        await fetch(`${url}/readyz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      // up to a minute: the oci driver unpacks the runner images on its first start
      if (child.exitCode !== null || i > 600) throw new Error(`the service did not start:\n${serviceLog}`);
      await sleep(100);
    }
    const pid = child.pid as number;
    // warm-up, then the baseline
    for (const w of WORKLOADS.filter((x) => x.kind === 'correct')) await post(url, w.body, candidate(0));
    await sleep(3_000);
    const baseline = memoryOf(pid).rssMb;
    console.log(
      `[soak] ${ROUNDS > 1 ? `${ROUNDS} rounds of ` : ''}${TOTAL} executions, concurrency ${CONCURRENCY}, runtime ${RUNTIME}, driver ${DRIVER}, budget ${TIMEOUT_MS} ms, seed ${SEED}; service pid ${pid}, RSS baseline ${baseline.toFixed(1)} MB`,
    );

    const latencies: Record<Kind, number[]> = { correct: [], failing: [], hostile: [] };
    const executed: Record<Kind, string[]> = { correct: [], failing: [], hostile: [] };
    const statuses: Record<Kind, Map<number, number>> = { correct: new Map(), failing: new Map(), hostile: new Map() };
    const byWorkload = new Map<string, { runs: number; failed: number }>();
    let answered = 0;
    let lost = 0;
    let maxRss = baseline;
    let wallMs = 0;
    let settled = false;
    let containers = 0;
    let pooled = 0;
    let final = Infinity;
    const finals: number[] = [];
    const returnMs: number[] = [];
    const sampler = setInterval(() => {
      try {
        maxRss = Math.max(maxRss, memoryOf(pid).rssMb);
      } catch {
        /* exited */
      }
    }, 250);
    for (let round = 1; round <= ROUNDS; round += 1) {
      const work = plan(TOTAL);
      const started = Date.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async (_, loop) => {
          for (let i = next++; i < work.length; i = next++) {
            const w = work[i];
            const stat = byWorkload.get(w.name) ?? { runs: 0, failed: 0 };
            byWorkload.set(w.name, stat);
            stat.runs += 1;
            const t0 = Date.now();
            let reply: Reply;
            try {
              reply = await post(url, w.body, w.kind === 'hostile' ? ATTACKER : candidate(loop));
            } catch (error) {
              lost += 1;
              stat.failed += 1;
              problems.push(`#${i} ${w.name}: no answer (${(error as Error).message})`);
              continue;
            }
            const ms = Date.now() - t0;
            answered += 1;
            latencies[w.kind].push(ms);
            if (reply.executionId) executed[w.kind].push(reply.executionId);
            statuses[w.kind].set(reply.status, (statuses[w.kind].get(reply.status) ?? 0) + 1);
            const problem = (w.kind === 'hostile' && reply.status === 503 ? refusedInTurn(reply) : w.check(reply)) ?? lateness(reply, ms);
            if (problem) {
              stat.failed += 1;
              problems.push(`#${i} ${w.name}: ${problem}`);
            }
            if ((i + 1) % 50 === 0) process.stderr.write(`[soak] round ${round}: ${i + 1}/${work.length}\n`);
          }
        }),
      );
      wallMs += Date.now() - started;

      // settle: nothing queued or running, and the only labelled containers are the pool's
      settled = false;
      let present: string[] = [];
      for (let i = 0; i < 80 && !settled; i += 1) {
        const pool = await poolContainers(url);
        present = await sandboxes();
        containers = present.length;
        pooled = pool.pooled;
        settled = pool.busy === 0 && containers <= pool.pooled;
        if (!settled) await sleep(250);
      }
      if (!settled) problems.push(`round ${round}, after settling: ${containers} containers, ${pooled} in the pool: ${present.join(', ')}`);

      // memory back near the baseline: an idle V8 collects the load's garbage only when its
      // memory reducer runs, so watch for up to RSS_WAIT_MS and keep the lowest sample
      const idleSince = Date.now();
      final = Infinity;
      while (Date.now() - idleSince < RSS_WAIT_MS) {
        final = Math.min(final, memoryOf(pid).rssMb);
        if (final <= baseline + RSS_SLACK_MB(baseline)) break;
        await sleep(1_000);
      }
      finals.push(final);
      returnMs.push(Date.now() - idleSince);
      if (ROUNDS > 1)
        console.log(
          `[soak] round ${round}: RSS after settling ${final.toFixed(1)} MB (${((Date.now() - idleSince) / 1000).toFixed(0)} s idle)`,
        );
    }
    clearInterval(sampler);
    const { hwmMb } = memoryOf(pid);
    if (final > baseline + RSS_SLACK_MB(baseline))
      problems.push(
        `RSS did not return near the baseline within ${RSS_WAIT_MS / 1000} s: ${final.toFixed(1)} MB vs ${baseline.toFixed(1)} MB`,
      );
    if (answered + lost !== TOTAL * ROUNDS || lost > 0) problems.push(`${lost} of ${TOTAL * ROUNDS} requests got no answer`);

    child.kill('SIGTERM');
    const exitCode = await exited;
    const leftAtExit = (await sandboxes()).length;
    await sleep(5_000);
    const left = await sandboxes();
    const leftLater = left.length;
    if (exitCode !== 0) problems.push(`the service exited with ${exitCode}`);
    if (leftLater > 0)
      problems.push(`${leftLater} containers left 5 s after the service exited (${leftAtExit} right at exit): ${left.join(', ')}`);
    else if (leftAtExit > 0) console.log(`[soak] note: ${leftAtExit} containers were still being removed when the service exited`);

    console.log('');
    console.log(`answered ${answered}/${TOTAL * ROUNDS} in ${(wallMs / 1000).toFixed(1)} s`);
    for (const kind of ['correct', 'failing', 'hostile'] as Kind[]) {
      const l = latencies[kind];
      const byStatus = [...statuses[kind]]
        .sort()
        .map(([s, n]) => `${s}×${n}`)
        .join(', ');
      console.log(
        `${kind.padEnd(8)} ${String(l.length).padStart(4)} runs  p50 ${percentile(l, 50)} ms  p95 ${percentile(l, 95)} ms  max ${percentile(l, 100)} ms  (${byStatus})`,
      );
      const waits = executed[kind].flatMap((id) => queueMs.get(id) ?? []);
      console.log(
        `${''.padEnd(8)} ${String(waits.length).padStart(4)} ran   queue wait p50 ${percentile(waits, 50)} ms  p95 ${percentile(waits, 95)} ms  max ${percentile(waits, 100)} ms`,
      );
    }
    console.log(
      `RSS baseline ${baseline.toFixed(1)} MB, sampled max ${maxRss.toFixed(1)} MB, peak (VmHWM) ${hwmMb.toFixed(1)} MB, after settling ${finals.map((f) => f.toFixed(1)).join(' / ')} MB (limit ${(baseline + RSS_SLACK_MB(baseline)).toFixed(1)} MB; back within ${returnMs.map((ms) => (ms / 1000).toFixed(0)).join(' / ')} s of idling)`,
    );
    console.log(`containers: ${containers} after settling (pool ${pooled}), ${leftAtExit} at exit, ${leftLater} five seconds later`);
    console.log(`check failures: ${problems.length}`);
    for (const [name, stat] of [...byWorkload].sort()) if (stat.failed) console.log(`  ${name}: ${stat.failed}/${stat.runs} failed`);
    for (const problem of problems.slice(0, 40)) console.log(`  - ${problem}`);
    return problems.length === 0 ? 0 : 1;
  } finally {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    const rest = await docker.listContainers({ all: true, filters: { label: [`code-runner.sandbox=${instance}`] } });
    await Promise.all(
      rest.map((c) =>
        docker
          .getContainer(c.Id)
          .remove({ force: true })
          .catch(() => undefined),
      ),
    );
    // with the oci driver a container left would still name its state there
    if ((await sandboxes()).length === 0) rmSync(serviceEnv.DATA_DIR, { recursive: true, force: true });
    else console.log(`[soak] containers are left; their data folder stays: ${serviceEnv.DATA_DIR}`);
  }
}

process.exitCode = await main().catch((error: Error) => {
  console.error(`[soak] failed: ${error.stack ?? error.message}`);
  return 1;
});
