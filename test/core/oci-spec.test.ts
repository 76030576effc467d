// The oci driver's config.json and seccomp filter, built without running anything.
import { describe, expect, it } from 'vitest';
import { ociSeccomp } from '../../src/core/sandbox/oci/seccomp.js';
import { ociSpec, SECCOMP_BPF_ANNOTATION } from '../../src/core/sandbox/oci/spec.js';

const LIMITS = { memoryMb: 256, cpus: 1, pids: 64, tmpfsMb: 64, nofile: 256, fsizeMb: 32 };
const IMAGE = { env: ['PATH=/usr/bin:/bin', 'LANG=C.UTF-8'], workingDir: '/tmp', entrypoint: ['python3', '-I', 'h.py'], cmd: [] };

type Rule = { names: string[]; action: string; errnoRet?: number; args?: Array<{ index: number; value: number; op: string }> };
const rulesFor = (name: string, rules: Rule[]) => rules.filter((r) => r.names.includes(name));

describe('ociSeccomp (Docker 20.10 default profile, no capabilities)', () => {
  const profile = ociSeccomp('x64', '6.1.0');

  it('denies by default and covers the x86 sub-architectures', () => {
    expect(profile?.defaultAction).toBe('SCMP_ACT_ERRNO');
    expect(profile?.architectures).toEqual(['SCMP_ARCH_X86_64', 'SCMP_ARCH_X86', 'SCMP_ARCH_X32']);
  });

  it('allows nothing that needs a capability: no mount, unshare, setns, bpf, chroot, module loading', () => {
    const allowed = new Set(profile?.syscalls.filter((r) => r.action === 'SCMP_ACT_ALLOW' && !r.args).flatMap((r) => r.names));
    for (const name of ['mount', 'umount2', 'unshare', 'setns', 'bpf', 'chroot', 'init_module', 'pivot_root', 'reboot', 'kexec_load'])
      expect(allowed.has(name), name).toBe(false);
    for (const name of ['read', 'write', 'execve', 'clone', 'mmap', 'futex'])
      expect(rulesFor(name, profile?.syscalls ?? []).length, name).toBeGreaterThan(0);
  });

  it('allows clone only without namespace flags, and answers clone3 with ENOSYS', () => {
    const clone = rulesFor('clone', profile?.syscalls ?? []);
    expect(clone).toEqual([
      { names: ['clone'], action: 'SCMP_ACT_ALLOW', args: [{ index: 0, value: 2114060288, valueTwo: 0, op: 'SCMP_CMP_MASKED_EQ' }] },
    ]);
    expect(rulesFor('clone3', profile?.syscalls ?? [])).toEqual([{ names: ['clone3'], action: 'SCMP_ACT_ERRNO', errnoRet: 38 }]);
  });

  it('keeps kernel-gated rules only on a new enough kernel', () => {
    expect(rulesFor('ptrace', ociSeccomp('x64', '6.1.0')?.syscalls ?? []).length).toBe(1);
    expect(rulesFor('ptrace', ociSeccomp('x64', '4.4.0')?.syscalls ?? []).length).toBe(0);
  });
});

describe('ociSpec', () => {
  const spec = ociSpec({
    rootfs: '/r',
    image: IMAGE,
    limits: LIMITS,
    runtime: 'crun',
    env: ['LANG=C'],
    cgroupsPath: '/cr/x',
    seccomp: undefined,
  }) as {
    process: Record<string, unknown>;
    root: unknown;
    mounts: Array<{ destination: string; options: string[] }>;
    linux: Record<string, unknown>;
  };

  it('runs the image entry point as 10001 with no capabilities, no_new_privs and the rlimits', () => {
    expect(spec.process).toMatchObject({
      user: { uid: 10001, gid: 10001 },
      args: ['python3', '-I', 'h.py'],
      env: ['PATH=/usr/bin:/bin', 'LANG=C', 'HOME=/tmp'],
      cwd: '/tmp',
      noNewPrivileges: true,
      capabilities: { bounding: [], effective: [], inheritable: [], permitted: [], ambient: [] },
      rlimits: [
        { type: 'RLIMIT_NOFILE', hard: 256, soft: 256 },
        { type: 'RLIMIT_FSIZE', hard: 32 << 20, soft: 32 << 20 },
        { type: 'RLIMIT_CORE', hard: 0, soft: 0 },
      ],
    });
    expect(spec.root).toEqual({ path: '/r', readonly: true });
  });

  it('mounts a noexec tmpfs on /tmp and a read-only /sys, in new namespaces with the cgroup limits', () => {
    expect(spec.mounts.find((m) => m.destination === '/tmp')?.options).toEqual([
      'rw',
      'nosuid',
      'nodev',
      'noexec',
      'size=64m',
      'mode=1777',
    ]);
    expect(spec.mounts.find((m) => m.destination === '/sys')?.options).toContain('ro');
    expect(spec.linux.namespaces).toEqual([{ type: 'pid' }, { type: 'network' }, { type: 'ipc' }, { type: 'uts' }, { type: 'mount' }]);
    expect(spec.linux.resources).toMatchObject({
      memory: { limit: 256 << 20, swap: 256 << 20, swappiness: 0 },
      pids: { limit: 64 },
      cpu: { quota: 100_000, period: 100_000 },
    });
    expect(spec.linux.maskedPaths).toContain('/proc/kcore');
    expect(spec.linux.readonlyPaths).toContain('/proc/sys');
  });
});

describe('ociSpec with the filter compiled once (run.oci.seccomp_bpf_data)', () => {
  const seccomp = ociSeccomp('x64', '6.1.0');
  const bpf = Buffer.alloc(16, 1).toString('base64');
  const specFor = (runtime: string, withSeccomp = true) =>
    ociSpec({
      rootfs: '/r',
      image: IMAGE,
      limits: LIMITS,
      runtime,
      env: [],
      cgroupsPath: '/cr/x',
      seccomp: withSeccomp ? seccomp : undefined,
      seccompBpf: bpf,
    }) as {
      annotations?: Record<string, string>;
      linux: { seccomp?: unknown };
    };

  it('gives crun the program and keeps the seccomp section beside it', () => {
    const spec = specFor('crun');
    expect(spec.annotations).toEqual({ [SECCOMP_BPF_ANNOTATION]: bpf });
    expect(spec.linux.seccomp).toEqual(seccomp);
  });

  it('gives it to no other runtime (runsc, runc keep compiling the section)', () => {
    for (const runtime of ['runsc', 'runc']) {
      expect(specFor(runtime).annotations, runtime).toBeUndefined();
      expect(specFor(runtime).linux.seccomp, runtime).toEqual(seccomp);
    }
  });

  it('gives no program to a container without the seccomp section (a measurement)', () => {
    expect(specFor('crun', false).annotations).toBeUndefined();
  });
});
