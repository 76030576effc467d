import os from 'node:os';
import dockerProfile from './docker-default-seccomp.json' with { type: 'json' };

/**
 * The seccomp filter of an oci-driver sandbox: Docker's own default profile, the one the docker
 * driver gets from the engine. `docker-default-seccomp.json` is moby's `profiles/seccomp/default.json`
 * of Docker 20.10.24 (the engine version on this host) as Debian ships it in
 * golang-github-docker-docker-dev 20.10.24+dfsg1-1+deb12u1, at
 * /usr/share/gocode/src/github.com/docker/docker/profiles/seccomp/default.json (that file's sha256:
 * e5e91f884647e7332b3f89280777752f563df4f1372a186f14ddb7bf2f55cf61). Upstream
 * https://github.com/moby/moby, Copyright Docker, Inc., Apache License 2.0. Only its layout was
 * changed (by prettier, as the repository's lint requires): the JSON value is the same. It is in Docker's
 * format, with rules that apply only for some capabilities, architectures or kernels;
 * `ociSeccomp` resolves those the way the engine does for a container with no capabilities and
 * writes the runtime-spec form.
 */

interface ArgRule {
  index: number;
  value: number;
  valueTwo?: number;
  op: string;
}
interface Conditions {
  caps?: string[];
  arches?: string[];
  minKernel?: string;
}
interface DockerRule {
  names: string[];
  action: string;
  errnoRet?: number;
  args?: ArgRule[] | null;
  includes?: Conditions;
  excludes?: Conditions;
}
interface DockerProfile {
  defaultAction: string;
  archMap: Array<{ architecture: string; subArchitectures: string[] }>;
  syscalls: DockerRule[];
}

export interface OciSeccomp {
  defaultAction: string;
  architectures: string[];
  syscalls: Array<{ names: string[]; action: string; errnoRet?: number; args?: Required<ArgRule>[] }>;
}

/** Node's architecture names to Go's, which the profile's `arches` use; and the native seccomp arch. */
const ARCHES: Record<string, { go: string; seccomp: string }> = {
  x64: { go: 'amd64', seccomp: 'SCMP_ARCH_X86_64' },
  arm64: { go: 'arm64', seccomp: 'SCMP_ARCH_AARCH64' },
};

function kernelAtLeast(release: string, wanted: string): boolean {
  const have = release.split(/[.-]/).map((part) => Number.parseInt(part, 10));
  const want = wanted.split('.').map((part) => Number.parseInt(part, 10));
  for (let i = 0; i < want.length; i += 1) {
    const a = Number.isNaN(have[i]) ? 0 : (have[i] ?? 0);
    if (a !== want[i]) return a > want[i];
  }
  return true;
}

/** Whether a rule applies to a container with no capabilities on this architecture and kernel. */
function applies(rule: DockerRule, goArch: string, kernel: string): boolean {
  const inc = rule.includes ?? {};
  const exc = rule.excludes ?? {};
  if (inc.caps && inc.caps.length > 0) return false;
  if (inc.arches && inc.arches.length > 0 && !inc.arches.includes(goArch)) return false;
  if (inc.minKernel && !kernelAtLeast(kernel, inc.minKernel)) return false;
  if (exc.arches?.includes(goArch)) return false;
  // excludes.caps: the rule is dropped only for a container holding one of them, and ours hold none
  return true;
}

let cached: OciSeccomp | undefined;

/** Docker's default profile as the runtime spec's `linux.seccomp` for this host; undefined on an architecture it does not know. */
export function ociSeccomp(arch: string = process.arch, kernel: string = os.release()): OciSeccomp | undefined {
  const names = ARCHES[arch];
  if (!names) return undefined;
  if (cached && arch === process.arch && kernel === os.release()) return cached;
  const profile = dockerProfile as DockerProfile;
  const entry = profile.archMap.find((a) => a.architecture === names.seccomp);
  const result: OciSeccomp = {
    defaultAction: profile.defaultAction,
    architectures: entry ? [entry.architecture, ...entry.subArchitectures] : [names.seccomp],
    syscalls: profile.syscalls
      .filter((rule) => applies(rule, names.go, kernel))
      .map((rule) => ({
        names: rule.names,
        action: rule.action,
        ...(rule.errnoRet === undefined ? {} : { errnoRet: rule.errnoRet }),
        ...(rule.args && rule.args.length > 0 ? { args: rule.args.map((a) => ({ ...a, valueTwo: a.valueTwo ?? 0 })) } : {}),
      })),
  };
  if (arch === process.arch && kernel === os.release()) cached = result;
  return result;
}
