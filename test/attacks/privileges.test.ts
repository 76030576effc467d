// Attacks on privileges: setuid/setgid, mount, ptrace, new namespaces, set-uid-root binaries, and
// what the process's credentials and capability sets actually are.
import { describe, expect, it } from 'vitest';
import { attack, attackBeside, RUNTIMES, useAttackService } from './support.js';

const PYTHON_PROBE = `import ctypes, os, subprocess, time
def f(x):
    out = {}
    status = dict(line.split(":", 1) for line in open("/proc/self/status").read().splitlines() if ":" in line)
    out["uid"] = status["Uid"].split()
    out["gid"] = status["Gid"].split()
    out["groups"] = status["Groups"].split()
    out["caps"] = {k: status[k].strip() for k in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb") if k in status}
    out["nnp"] = status.get("NoNewPrivs", "").strip()
    out["seccomp"] = status.get("Seccomp", "").strip()
    out["seccomp filters"] = status.get("Seccomp_filters", "").strip()
    for name, action in [("setuid", lambda: os.setuid(0)), ("seteuid", lambda: os.seteuid(0)), ("setgid", lambda: os.setgid(0)),
                         ("setgroups", lambda: os.setgroups([0])), ("chroot", lambda: os.chroot("/tmp")),
                         ("mknod", lambda: os.mknod("/tmp/sda", 0o600 | 0o060000, os.makedev(8, 0)))]:
        try:
            action()
            out[name] = "allowed"
        except OSError as e:
            out[name] = e.errno
    try:
        with open("/tmp/sda", "rb") as fh:
            out["read device"] = "read %d bytes" % len(fh.read(512))
    except OSError as e:
        out["read device"] = type(e).__name__
    libc = ctypes.CDLL(None, use_errno=True)
    def call(fn, *args):
        return 0 if fn(*args) == 0 else ctypes.get_errno()
    out["mount"] = call(libc.mount, b"none", b"/tmp", b"tmpfs", 0, None)
    out["umount"] = call(libc.umount2, b"/tmp", 2)
    out["ptrace pid 1"] = call(libc.ptrace, 16, 1, None, None)
    # su is set-uid root in the image: with no-new-privileges the bit is ignored, so while su
    # waits for a password its effective uid is still ours
    su = subprocess.Popen(["/usr/bin/su", "-c", "id", "root"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    time.sleep(0.5)
    try:
        out["su uid"] = [l for l in open("/proc/%d/status" % su.pid).read().splitlines() if l.startswith("Uid:")][0].split()[1:]
    except OSError as e:
        out["su uid"] = type(e).__name__
    su.kill()
    su.wait()
    out["mount binary"] = subprocess.run(["/usr/bin/mount", "-t", "tmpfs", "none", "/tmp"], capture_output=True, text=True).returncode
    # last: under gVisor these succeed (inside the Sentry) and change what the checks above see
    out["unshare user"] = call(libc.unshare, 0x10000000)
    out["unshare mount"] = call(libc.unshare, 0x00020000)
    return out
`;

describe.each(RUNTIMES)('privilege attacks under %s', (runtime) => {
  const ctx = useAttackService(runtime);
  const EPERM = 1;

  it.concurrent('python: no capabilities, seccomp, no uid 0, no mount, ptrace or set-uid escalation', async () => {
    const { results } = await attack(ctx, 'python', PYTHON_PROBE, { testCases: [{ args: { x: 1 }, expected: null }] });
    expect(results[0].error).toBeNull();
    const out = results[0].actual as Record<string, unknown>;
    expect(out.uid).toEqual(['10001', '10001', '10001', '10001']);
    expect(out.gid).toEqual(['10001', '10001', '10001', '10001']);
    expect(
      (out.groups as string[]).filter((g) => g !== '10001'),
      'supplementary groups',
    ).toEqual([]);
    for (const [set, value] of Object.entries(out.caps as Record<string, string>)) expect(value, set).toMatch(/^0+$/);
    expect(Object.keys(out.caps as object)).toEqual(expect.arrayContaining(['CapPrm', 'CapEff', 'CapBnd']));
    expect((out.caps as Record<string, string>).CapEff, 'no effective capability').toMatch(/^0+$/);
    if (runtime === 'runsc') {
      // gVisor's /proc is the Sentry's view: it has no NoNewPrivs line, and Seccomp 0 because runsc
      // installs the OCI profile in its guest only with --oci-seccomp (not set here). The guest's
      // system calls reach the Sentry, not the host kernel, and the Sentry itself runs on the host
      // under its own filter with no_new_privs (host /proc of runsc-sandbox and runsc-gofer:
      // Seccomp 2, NoNewPrivs 1; docs/security.md).
      expect(out.nnp).toBe('');
      expect(out.seccomp).toBe('0');
    } else {
      // runc and crun: no-new-privileges and Docker's default seccomp profile (the oci driver ships
      // the same profile), a filter in mode 2 (SECCOMP_MODE_FILTER)
      expect(out.nnp).toBe('1');
      expect(out.seccomp, 'seccomp mode').toBe('2');
      expect(Number(out['seccomp filters']), 'seccomp filters').toBeGreaterThanOrEqual(1);
    }
    for (const call of ['setuid', 'seteuid', 'setgid', 'setgroups', 'chroot', 'mount', 'umount', 'ptrace pid 1'])
      expect(out[call], call).toBe(EPERM);
    // runc: creating a device node needs CAP_MKNOD. gVisor lets it be made in its own tmpfs, but
    // it leads to no host device: opening it fails either way.
    if (runtime !== 'runsc') expect(out.mknod).toBe(EPERM);
    expect(out['read device']).not.toMatch(/^read/);
    expect(out['su uid'], 'set-uid root su runs with our uid (real, effective, saved, fs)').toEqual(['10001', '10001', '10001', '10001']);
    expect(out['mount binary']).not.toBe(0);
    if (runtime === 'runsc') {
      // gVisor implements namespaces inside its own kernel (the Sentry); they give no host privilege
      expect([0, EPERM]).toContain(out['unshare user']);
    } else {
      // Docker's seccomp profile refuses new namespaces without CAP_SYS_ADMIN
      expect(out['unshare user']).toBe(EPERM);
      expect(out['unshare mount']).toBe(EPERM);
    }
  });

  it.concurrent(
    'javascript: setuid/setgid fail, no capability, seccomp as the runtime reports it, the mount and unshare tools refused',
    async () => {
      const code = `function f(x) {
  const cp = require('child_process');
  const out = {};
  for (const [name, action] of [['setuid', () => process.setuid(0)], ['setgid', () => process.setgid(0)], ['setgroups', () => process.setgroups([0])]]) {
    try { action(); out[name] = 'allowed'; } catch (e) { out[name] = e.code; }
  }
  out.uid = [process.getuid(), process.geteuid(), process.getgid(), process.getegid()];
  const status = require('fs').readFileSync('/proc/self/status', 'utf8');
  for (const field of ['Seccomp', 'NoNewPrivs', 'CapEff']) out[field] = (status.match(new RegExp('^' + field + ':\\\\s*(\\\\S+)', 'm')) || [])[1] || '';
  for (const command of ['mount -t tmpfs none /tmp', 'unshare -m true', 'nsenter -t 1 -m true']) {
    out[command] = cp.spawnSync('sh', ['-c', command], { encoding: 'utf8' }).status;
  }
  return out;
}
`;
      // beside a /healthz prober and a victim execution: this file's representative (support.ts)
      const { results } = await attackBeside(ctx, 'javascript', code, { testCases: [{ args: { x: 1 }, expected: null }] });
      expect(results[0].error).toBeNull();
      const out = results[0].actual as Record<string, unknown>;
      expect([out.setuid, out.setgid, out.setgroups]).toEqual(['EPERM', 'EPERM', 'EPERM']);
      expect(out.uid).toEqual([10001, 10001, 10001, 10001]);
      expect(out.CapEff).toMatch(/^0+$/);
      // what the Python test explains: gVisor's guest shows neither a filter nor no_new_privs
      expect([out.Seccomp, out.NoNewPrivs]).toEqual(runtime === 'runsc' ? ['0', ''] : ['2', '1']);
      for (const command of ['mount -t tmpfs none /tmp', 'unshare -m true', 'nsenter -t 1 -m true'])
        expect(out[command], command).not.toBe(0);
    },
  );
});
