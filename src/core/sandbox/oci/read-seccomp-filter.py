"""Prints, base64-encoded, the seccomp BPF program the kernel holds for one process (run as root).

Usage: python3 read-seccomp-filter.py <pid>

The oci driver compiles Docker's profile once: it reads back the program crun installed in a
throwaway container, byte for byte, and hands it to later containers (run.oci.seccomp_bpf_data).
Node cannot ptrace, so this runs on the host's python3. Exit status 2 with a message on stderr when
the process holds no filter or more than one (a stack would not be reproduced by one program).
"""

import base64
import ctypes
import errno
import os
import sys

PTRACE_DETACH = 17
PTRACE_SEIZE = 0x4206
PTRACE_INTERRUPT = 0x4207
PTRACE_SECCOMP_GET_FILTER = 0x420C
SOCK_FILTER_SIZE = 8  # struct sock_filter: u16 code, u8 jt, u8 jf, u32 k

libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.restype = ctypes.c_long
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p]


def ptrace(request, pid, addr, data):
    ctypes.set_errno(0)
    result = libc.ptrace(request, pid, addr, data)
    return result, ctypes.get_errno()


def fail(message):
    sys.stderr.write(message + "\n")
    sys.exit(2)


def read_filter(pid):
    count, err = ptrace(PTRACE_SECCOMP_GET_FILTER, pid, 0, None)
    if count < 0:
        fail(f"PTRACE_SECCOMP_GET_FILTER index 0: {os.strerror(err)}")
    buffer = ctypes.create_string_buffer(count * SOCK_FILTER_SIZE)
    got, err = ptrace(PTRACE_SECCOMP_GET_FILTER, pid, 0, buffer)
    if got != count:
        fail(f"PTRACE_SECCOMP_GET_FILTER read {got} of {count} instructions: {os.strerror(err)}")
    second, err = ptrace(PTRACE_SECCOMP_GET_FILTER, pid, 1, None)
    if second >= 0 or err != errno.ENOENT:
        fail(f"more than one seccomp filter (index 1: {second}, {os.strerror(err)})")
    return buffer.raw


def main():
    pid = int(sys.argv[1])
    result, err = ptrace(PTRACE_SEIZE, pid, None, None)
    if result != 0:
        fail(f"PTRACE_SEIZE {pid}: {os.strerror(err)}")
    try:
        result, err = ptrace(PTRACE_INTERRUPT, pid, None, None)
        if result != 0:
            fail(f"PTRACE_INTERRUPT {pid}: {os.strerror(err)}")
        os.waitpid(pid, getattr(os, "__WALL", 0x40000000))
        program = read_filter(pid)
    finally:
        ptrace(PTRACE_DETACH, pid, None, None)
    sys.stdout.write(base64.b64encode(program).decode("ascii") + "\n")


main()
