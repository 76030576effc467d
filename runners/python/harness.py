"""In-container harness for Python: loads the user's module, calls the target once per case and
streams one frame per event to the host (protocol: docs/harness-protocol.md)."""
import asyncio
import inspect
import io
import json
import math
import os
import sys
import time
import traceback

MARK = b"\x1e"
MAX_DEPTH = 256
TRUNCATED = "\n...[truncated]"


class Channel:
    """The original stdout, duplicated before user code runs, so closing fd 1 cannot cut it."""

    def __init__(self):
        self.fd = os.dup(1)

    def write_line(self, data):
        view = memoryview(data)
        while view:
            try:
                written = os.write(self.fd, view)
            except InterruptedError:
                continue
            view = view[written:]


class Capture(io.TextIOBase):
    """Collects what one case prints (stdout and stderr interleaved), keeping at most `cap` bytes."""

    def __init__(self, cap):
        super().__init__()
        self.cap = cap
        self.reset()

    def reset(self):
        self.parts = []
        self.size = 0
        self.truncated = False

    @property
    def encoding(self):
        return "utf-8"

    def writable(self):
        return True

    def isatty(self):
        return False

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError("write() argument must be str, not %s" % type(text).__name__)
        if self.truncated:
            return len(text)
        data = text.encode("utf-8", "surrogatepass")
        room = self.cap - self.size
        if len(data) > room:
            data = data[:room]
            self.truncated = True
        self.parts.append(data)
        self.size += len(data)
        return len(text)

    def flush(self):
        pass

    def take(self):
        text = b"".join(self.parts).decode("utf-8", "ignore")
        if self.truncated:
            text += TRUNCATED
        self.reset()
        return text


def encode_key(key):
    if isinstance(key, str):
        return key
    if key is True:
        return "true"
    if key is False:
        return "false"
    if key is None:
        return "null"
    if isinstance(key, (int, float)):
        return json.dumps(encode(key, 0, set()))
    return str(key)


def encode(value, depth, seen):
    """Turns a return value into something json.dumps writes by the protocol's rules."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return float(value)
    if depth >= MAX_DEPTH or id(value) in seen:
        return safe_repr(value)
    seen = seen | {id(value)}
    if isinstance(value, (list, tuple)):
        return [encode(item, depth + 1, seen) for item in value]
    if isinstance(value, (set, frozenset)):
        items = list(value)
        try:
            items.sort()
        except TypeError:
            pass
        return [encode(item, depth + 1, seen) for item in items]
    if isinstance(value, dict):
        return {encode_key(k): encode(v, depth + 1, seen) for k, v in value.items()}
    return safe_repr(value)


def safe_repr(value):
    try:
        return repr(value)
    except BaseException:
        return "<%s object>" % type(value).__name__


def describe_error(error, filename):
    line = column = None
    if isinstance(error, SyntaxError) and error.filename == filename:
        line, column = error.lineno, error.offset
    else:
        for frame in traceback.extract_tb(error.__traceback__):
            if frame.filename == filename:
                line = frame.lineno
    message = error.msg if isinstance(error, SyntaxError) else safe_str(error)
    if isinstance(error, KeyError) and error.args:
        message = safe_repr(error.args[0])
    return {"type": type(error).__name__, "message": message, "line": line, "column": column}


def safe_str(error):
    try:
        return str(error)
    except BaseException:
        return ""


def or_list(names):
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


class Harness:
    def __init__(self):
        self.channel = Channel()
        self.nonce = b""
        self.namespace = {}

    def send(self, frame):
        for stream in (sys.__stdout__, sys.__stderr__):
            try:
                stream.flush()
            except BaseException:
                pass
        try:
            body = json.dumps(frame, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError):
            frame = dict(frame, value=safe_repr(frame.get("value")))
            body = json.dumps(frame, ensure_ascii=False, allow_nan=False)
        self.channel.write_line(MARK + self.nonce + b" " + body.encode("utf-8", "surrogatepass") + b"\n")

    def ready(self):
        version = "Python %d.%d.%d" % sys.version_info[:3]
        self.channel.write_line(MARK + b"ready " + version.encode() + b"\n")

    def read_job(self):
        line = sys.stdin.buffer.readline()
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        sys.stdin = io.StringIO("")
        return json.loads(line)

    def run(self):
        self.ready()
        job = self.read_job()
        self.nonce = job["nonce"].encode()
        filename = job.get("filename", "solution.py")
        capture = Capture(int(job.get("stdoutCap", 65536)))
        sys.stdout = sys.stderr = capture

        namespace = self.namespace = {"__name__": "solution", "__file__": filename, "__builtins__": __builtins__}
        try:
            exec(compile(job["code"], filename, "exec"), namespace)
        except BaseException as error:  # a failing module is the user's fault, reported once
            self.send({"t": "loaded", "error": describe_error(error, filename), "stdout": capture.take()})
            self.send({"t": "done"})
            return
        target = job["target"]
        names = target["names"]
        owner = namespace.get(target["class"]) if target.get("class") else None
        found = self.lookup(namespace, owner, names)
        if found is None:
            kind = "method of %s" % target["class"] if target.get("class") else "function"
            message = "no %s named %s is defined" % (kind, or_list(names))
            self.send({"t": "loaded", "error": {"type": "NameError", "message": message, "line": None, "column": None}, "stdout": capture.take()})
            self.send({"t": "done"})
            return
        self.send({"t": "loaded", "error": None})
        for case in job["cases"]:
            self.run_case(case, owner, found, filename, capture)
        self.send({"t": "done"})

    @staticmethod
    def lookup(namespace, owner, names):
        for name in names:
            if owner is not None:
                if callable(getattr(owner, name, None)):
                    return name
            elif callable(namespace.get(name)):
                return name
        return None

    def run_case(self, case, owner, name, filename, capture):
        index = case["i"]
        self.send({"t": "begin", "i": index})
        value = error = None
        started = time.perf_counter()
        try:
            function = getattr(owner(), name) if owner is not None else self.namespace[name]
            result = function(*case.get("args", []), **case.get("kwargs", {}))
            if inspect.isawaitable(result):
                result = asyncio.run(awaitable_to_coroutine(result))
            elapsed = (time.perf_counter() - started) * 1000
            value = encode(result, 0, set())
        except BaseException as failure:  # SystemExit and KeyboardInterrupt are case errors too
            elapsed = (time.perf_counter() - started) * 1000
            error = describe_error(failure, filename)
        self.send({"t": "result", "i": index, "value": value, "error": error, "ms": elapsed, "stdout": capture.take()})


async def awaitable_to_coroutine(awaitable):
    return await awaitable


if __name__ == "__main__":
    Harness().run()
