"""In-container harness for Python jobs (docs/harness-protocol.md).

Prints the ready line, reads one job line from stdin, runs the user's module and every case,
and streams frames on a private duplicate of the original stdout. Standard library only; keep
the imports at start-up to what is needed so that a cold start stays fast.
"""
import io
import json
import os
import sys
import time
import types
from json.encoder import encode_basestring_ascii as _quote

# Bound once, so that user code patching these modules cannot cut the frame channel.
_os_write = os.write
_perf_counter = time.perf_counter
_CoroutineType = types.CoroutineType

TRUNCATION_MARKER = "\n...[truncated]"
MAX_DEPTH = 256
# The largest return value a result frame carries, in bytes of JSON (protocol section 4).
RETURN_LIMIT = 1 << 20
# An error's type and message are cut to this many characters (the host shows fewer still).
MAX_ERROR_CHARS = 4096
# A b-bit integer has more than (b - 1) * LOG10_2 decimal digits (slightly below log10(2)).
LOG10_2 = 0.301
_set_digits = getattr(sys, "set_int_max_str_digits", None)
_get_digits = getattr(sys, "get_int_max_str_digits", None)


# ---------------------------------------------------------------------------
# Frame channel


class Channel:
    """Writes whole lines to the private fd, flushing the interpreter's own stdio first."""

    def __init__(self, fd):
        self.fd = fd
        self.prefix = None

    def send_raw(self, data):
        view = memoryview(data)
        while view:
            try:
                written = _os_write(self.fd, view)
            except BlockingIOError:
                # the descriptor is shared with a non-blocking pipe: wait until it drains
                import select

                select.select([], [self.fd], [], 1.0)
                continue
            except InterruptedError:
                continue
            except OSError:
                # the channel is gone (closed or broken): nothing more can be reported
                os._exit(1)
            view = view[written:]

    def frame(self, body):
        _flush_stdio()
        self.send_raw(self.prefix + body.encode("ascii") + b"\n")


def _flush_stdio():
    """Stray output buffered in the original stdio objects goes out before the next frame."""
    for stream in (sys.__stdout__, sys.__stderr__):
        try:
            if stream is not None:
                stream.flush()
        except BaseException:
            pass


# ---------------------------------------------------------------------------
# Output capture


class Capture:
    """One case's output (stdout and stderr interleaved), at most `cap` UTF-8 bytes kept."""

    def __init__(self, cap):
        self.cap = cap
        self.parts = []
        self.size = 0
        self.cut = False

    @property
    def room(self):
        return self.cap - self.size

    def add(self, text):
        if self.cut or not text:
            return
        room = self.room
        # every character takes at least one byte: only the first `room` can fit, so a huge
        # text is never encoded whole
        whole = len(text) <= room
        if not whole:
            text = text[:room]
        data = None if text.isascii() else text.encode("utf-8", "surrogatepass")
        if data is not None and len(data) > room:
            whole = False
            end = room
            # step back over continuation bytes so that no character is split
            while end > 0 and (data[end] & 0xC0) == 0x80:
                end -= 1
            text = data[:end].decode("utf-8", "surrogatepass")
        self.parts.append(text)
        if whole:
            self.size += len(text) if data is None else len(data)
        else:
            self.size = self.cap
            self.cut = True

    def text(self):
        out = "".join(self.parts)
        return out + TRUNCATION_MARKER if self.cut else out


class _BinaryOut:
    """The `.buffer` of a captured stream: bytes are decoded as UTF-8 into the same capture."""

    def __init__(self, text_stream):
        self._text = text_stream

    def write(self, data):
        if self._text.closed:
            raise ValueError("write to closed file")
        size = len(data)
        view = memoryview(data)
        capture = self._text._harness.capture
        if not capture.cut:
            # decode no more than can be kept: a character that fits ends within room + 3 bytes
            capture.add(bytes(view[: capture.room + 4]).decode("utf-8", "replace"))
        return size

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def flush(self):
        pass

    def fileno(self):
        return self._text.fileno()

    def isatty(self):
        return False

    def writable(self):
        return True

    def readable(self):
        return False

    @property
    def closed(self):
        return self._text.closed

    @property
    def raw(self):
        return self


class CapturedStream(io.TextIOBase):
    """Stands in for sys.stdout / sys.stderr: text goes to the harness's current capture."""

    def __init__(self, harness, name, fd):
        super().__init__()
        self._harness = harness
        self._name = name
        self._fd = fd
        self._closed = False
        self._buffer = _BinaryOut(self)

    def write(self, text):
        if self._closed:
            raise ValueError("I/O operation on closed file.")
        if not isinstance(text, str):
            raise TypeError("write() argument must be str, not %s" % type(text).__name__)
        self._harness.capture.add(text)
        return len(text)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def flush(self):
        if self._closed:
            raise ValueError("I/O operation on closed file.")

    def close(self):
        self._closed = True

    @property
    def closed(self):
        return self._closed

    def fileno(self):
        return self._fd

    def isatty(self):
        return False

    def readable(self):
        return False

    def writable(self):
        return True

    def seekable(self):
        return False

    def reconfigure(self, **_options):
        pass

    @property
    def buffer(self):
        return self._buffer

    @property
    def encoding(self):
        return "utf-8"

    @property
    def errors(self):
        return "strict"

    @property
    def line_buffering(self):
        return False

    @property
    def name(self):
        return self._name

    @property
    def mode(self):
        return "w"

    def __repr__(self):
        return "<_io.TextIOWrapper name='%s' mode='w' encoding='utf-8'>" % self._name


# ---------------------------------------------------------------------------
# Value encoding (protocol section 4)


def _safe_repr(value):
    try:
        text = repr(value)
        if isinstance(text, str):
            return str.__str__(text)
    except BaseException:
        pass
    try:
        return "<%s object>" % type(value).__name__
    except BaseException:
        return "<object>"


def _float_json(value):
    if value != value:
        return '"NaN"'
    if value == float("inf"):
        return '"Infinity"'
    if value == float("-inf"):
        return '"-Infinity"'
    return float.__repr__(value)


def _key_text(key):
    if type(key) is str:
        return key
    if key is True:
        return "true"
    if key is False:
        return "false"
    if key is None:
        return "null"
    if isinstance(key, int):
        return int.__repr__(key)
    if isinstance(key, float):
        if key != key:
            return "NaN"
        if key in (float("inf"), float("-inf")):
            return "Infinity" if key > 0 else "-Infinity"
        return float.__repr__(key)
    if isinstance(key, str):
        return str.__str__(key)
    return str(key)


def _is_number(value):
    return isinstance(value, (int, float))


class TooLarge(Exception):
    """The value's JSON outgrew RETURN_LIMIT; `at_least` is a lower bound on its size in bytes."""

    def __init__(self, at_least):
        super().__init__(at_least)
        self.at_least = at_least


class Encoder:
    """Writes one value as JSON, counting its bytes as it goes (the text is ASCII: one byte a
    character), so that a value over the limit is refused before its whole text exists.
    """

    def __init__(self, limit):
        self.path = set()
        self.limit = limit
        self.size = 0

    def _reserve(self, at_least):
        """Refuses, before building it, a piece that will take at least `at_least` more bytes."""
        if self.size + at_least > self.limit:
            raise TooLarge(self.size + at_least)

    def _spend(self, count):
        self.size += count
        if self.size > self.limit:
            raise TooLarge(self.size)

    def _leaf(self, text):
        # _spend inlined: this runs for every scalar of a value
        self.size += len(text)
        if self.size > self.limit:
            raise TooLarge(self.size)
        return text

    def _string(self, value):
        if self.size + len(value) + 2 > self.limit:
            raise TooLarge(self.size + len(value) + 2)
        return self._leaf(_quote(value))

    def _int(self, value):
        # a huge int is refused before its (slow, quadratic) conversion to decimal
        self._reserve(int((int.bit_length(value) - 1) * LOG10_2))
        return self._leaf(int.__repr__(value))

    def encode(self, value, depth=0):
        """JSON text for one value; a value that cannot be encoded becomes its repr string."""
        size = self.size
        try:
            return self._encode(value, depth)
        except TooLarge:
            raise
        except BaseException:
            # what a failed attempt counted is not part of the text
            self.size = size
            return self._string(_safe_repr(value))

    def _encode(self, value, depth):
        kind = type(value)
        if value is None:
            return self._leaf("null")
        if kind is bool:
            return self._leaf("true" if value else "false")
        if kind is int:
            return self._int(value)
        if kind is float:
            return self._leaf(_float_json(value))
        if kind is str:
            return self._string(value)
        if kind is list or kind is tuple or isinstance(value, (list, tuple)):
            return self._container(value, depth, self._sequence)
        if isinstance(value, dict):
            return self._container(value, depth, self._mapping)
        if isinstance(value, (set, frozenset)):
            return self._container(value, depth, self._set)
        if isinstance(value, int):
            return self._int(value)
        if isinstance(value, float):
            return self._leaf(_float_json(value))
        if isinstance(value, str):
            return self._string(str.__str__(value))
        return self._string(_safe_repr(value))

    def _container(self, value, depth, body):
        ident = id(value)
        if depth >= MAX_DEPTH or ident in self.path:
            return self._string(_safe_repr(value))
        # every item takes at least a byte and a comma: a huge container is refused uncopied
        self._reserve(2 * len(value) + 1)
        self.path.add(ident)
        try:
            return body(value, depth + 1)
        finally:
            self.path.discard(ident)

    def _sequence(self, items, depth):
        items = list(items)
        kinds = set(map(type, items))
        if kinds == {int}:
            digits = int((sum(map(int.bit_length, items)) - len(items)) * LOG10_2)
            self._reserve(max(digits, len(items)) + len(items) + 1)
            return self._leaf("[" + ",".join(map(int.__repr__, items)) + "]")
        if kinds == {str}:
            self._reserve(sum(map(len, items)) + 3 * len(items) + 1)
            return self._leaf("[" + ",".join(map(_quote, items)) + "]")
        return self._items(items, depth)

    def _items(self, items, depth):
        self._spend(2 + max(len(items) - 1, 0))
        encode = self.encode
        return "[" + ",".join([encode(item, depth) for item in items]) + "]"

    def _set(self, items, depth):
        items = list(items)
        if items and (all(map(_is_number, items)) or all(isinstance(item, str) for item in items)):
            try:
                items = sorted(items)
            except BaseException:
                pass
        return self._items(items, depth)

    def _mapping(self, mapping, depth):
        # keys that read the same (1 and "1") keep the first one's place and the last one's value
        fields = {}
        for key, item in list(mapping.items()):
            fields[_key_text(key)] = item
        count = len(fields)
        # the keys with their quotes, colons, commas and braces, counted at once
        self._reserve(sum(map(len, fields)) + 4 * count + 1)
        keys = list(map(_quote, fields))
        self._spend(sum(map(len, keys)) + 2 + max(count - 1, 0) + count)
        encode = self.encode
        return "{" + ",".join([key + ":" + encode(item, depth) for key, item in zip(keys, fields.values())]) + "}"


def encode_value(value):
    """Encodes a returned value; ints are written in full whatever the interpreter's digit limit.

    Raises TooLarge past RETURN_LIMIT bytes.
    """
    previous = _get_digits() if _get_digits else None
    if _set_digits:
        _set_digits(0)
    # room for MAX_DEPTH levels of nesting on top of whatever the user's code left on the stack
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(limit + 8 * MAX_DEPTH)
    try:
        return Encoder(RETURN_LIMIT).encode(value)
    finally:
        sys.setrecursionlimit(limit)
        if _set_digits and previous is not None:
            _set_digits(previous)


def too_large_error(failure):
    message = "return value too large: at least %d bytes as JSON (limit %d)" % (failure.at_least, RETURN_LIMIT)
    return {"type": "ValueError", "message": message, "line": None, "column": None}


# ---------------------------------------------------------------------------
# Errors


def describe_error(error, filename):
    """The protocol's error object for an exception raised by user code.

    Runtime errors carry the line of the innermost frame in the user's file (no column);
    syntax errors in the user's file carry line and column.
    """
    try:
        kind = type(error).__name__
    except BaseException:
        kind = "Exception"
    try:
        message = str(error)
    except BaseException:
        message = ""
    line = column = None
    if isinstance(error, SyntaxError) and getattr(error, "filename", None) == filename:
        if isinstance(error.msg, str):
            message = error.msg
        line = error.lineno if isinstance(error.lineno, int) else None
        column = error.offset if isinstance(error.offset, int) and error.offset > 0 else None
    else:
        tb = error.__traceback__
        mine = None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == filename:
                mine = tb
            tb = tb.tb_next
        if mine is not None:
            line = mine.tb_lineno
    return {"type": kind, "message": message, "line": line, "column": column}


# The line breaks besides "\n" that a terminal or a log reads as a new line, made "\n": the host
# joins a message's lines with spaces (protocol section 3) and knows only "\n".
_LINE_BREAKS = {ord(c): "\n" for c in "\r\x0b\x0c\x85\u2028\u2029"}


def error_json(error):
    """The error object as frame JSON, its type on one line (user code names its exception types).

    Unbound str methods: a str subclass returned by __str__ cannot override them.
    """
    if error is None:
        return "null"
    kind = " ".join(str.split(str(error["type"])[:MAX_ERROR_CHARS]))
    message = str.translate(str(error["message"])[:MAX_ERROR_CHARS], _LINE_BREAKS)
    return "{%s}" % ",".join(
        [
            '"type":' + _quote(kind),
            '"message":' + _quote(message),
            '"line":' + ("null" if error["line"] is None else str(int(error["line"]))),
            '"column":' + ("null" if error["column"] is None else str(int(error["column"]))),
        ]
    )


def names_text(names):
    names = [str(name) for name in names]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " or " + names[-1]


# ---------------------------------------------------------------------------
# The run


def _missing(message):
    return {"type": "NameError", "message": message, "line": None, "column": None}


class Target:
    """What each case calls: a module-level function, or a method of a fresh instance per case."""

    def __init__(self, namespace, class_name, names):
        self.class_name = class_name
        self.names = names
        self.cls = None
        self.function = None
        self.method = None
        self.error = None
        if class_name:
            self.cls = namespace.get(class_name)
            if not callable(self.cls):
                self.error = _missing("no class named %s is defined" % class_name)
                return
            # a method found on the class is used for every instance; otherwise each instance
            # is searched (a callable set in __init__ counts too)
            for name in names:
                if callable(getattr(self.cls, name, None)):
                    self.method = name
                    break
            return
        for name in names:
            candidate = namespace.get(name)
            if callable(candidate):
                self.function = candidate
                return
        self.error = _missing("no function named %s is defined" % names_text(names))

    def callable_for_case(self):
        """The function to call for one case; may raise (the class's constructor is user code)."""
        if self.cls is None:
            return self.function
        instance = self.cls()
        for name in [self.method] if self.method else self.names:
            candidate = getattr(instance, name, None)
            if callable(candidate):
                return candidate
        return None


def _is_awaitable(value):
    if type(value) is _CoroutineType:
        return True
    try:
        return hasattr(type(value), "__await__")
    except BaseException:
        return False


async def _await(awaitable):
    return await awaitable


class Harness:
    def __init__(self, channel):
        self.channel = channel
        self.capture = Capture(0)
        self.stdout = CapturedStream(self, "<stdout>", 1)
        self.stderr = CapturedStream(self, "<stderr>", 2)
        self.filename = "solution.py"

    def install_streams(self):
        """Points sys.stdout/sys.stderr at the capture again (user code may have replaced or closed them)."""
        if self.stdout.closed:
            self.stdout = CapturedStream(self, "<stdout>", 1)
        if self.stderr.closed:
            self.stderr = CapturedStream(self, "<stderr>", 2)
        sys.stdout = self.stdout
        sys.stderr = self.stderr

    def run(self, job):
        self.filename = filename = str(job.get("filename") or "solution.py")
        code = job.get("code") or ""
        if code.startswith("\ufeff"):
            # a byte-order mark, which CPython skips at the start of a source file
            code = code[1:]
        target = job.get("target") or {}
        cases = job.get("cases") or []
        cap = int(job.get("stdoutCap") or 0)
        send = self.channel.frame

        self.capture = Capture(cap)
        self.install_streams()
        module = types.ModuleType("solution")
        module.__file__ = filename
        sys.modules["solution"] = module
        sys.argv = [filename]

        error = None
        try:
            exec(compile(code, filename, "exec"), module.__dict__)
        except BaseException as failure:  # SystemExit at the top level is a load error too
            error = describe_error(failure, filename)
        if error is None:
            found = Target(module.__dict__, target.get("class"), [str(name) for name in target.get("names") or []])
            error = found.error
        if error is not None:
            send('{"t":"loaded","error":%s,"stdout":%s}' % (error_json(error), _quote(self.capture.text())))
            send('{"t":"done"}')
            return
        send('{"t":"loaded","error":null}')

        # what the module printed while loading stays in the capture: it leads case 0's output
        for number, case in enumerate(cases):
            if number:
                self.capture = Capture(cap)
            self.install_streams()
            index = encode_value(case.get("i"))
            send('{"t":"begin","i":%s}' % index)
            value, error, elapsed = self.run_case(case, found)
            self.install_streams()
            send(
                '{"t":"result","i":%s,"value":%s,"error":%s,"ms":%s,"stdout":%s}'
                % (index, value, error_json(error), float.__repr__(elapsed), _quote(self.capture.text()))
            )
        send('{"t":"done"}')

    def run_case(self, case, found):
        """Returns (value JSON text, error or None, milliseconds)."""
        args = case.get("args") or []
        kwargs = case.get("kwargs") or {}
        try:
            call = found.callable_for_case()
        except BaseException as failure:
            return "null", describe_error(failure, self.filename), 0.0
        if call is None:
            message = "no method named %s is defined in class %s" % (names_text(found.names), found.class_name)
            return "null", _missing(message), 0.0
        paused = 0.0
        start = _perf_counter()
        try:
            result = call(*args, **kwargs)
            if _is_awaitable(result):
                if "asyncio" not in sys.modules:
                    # importing asyncio the first time is not the user's time
                    before = _perf_counter()
                    import asyncio  # noqa: F401

                    paused = _perf_counter() - before
                if type(result) is not _CoroutineType:
                    result = _await(result)
                result = sys.modules["asyncio"].run(result)
        except BaseException as failure:  # SystemExit and KeyboardInterrupt are case errors too
            elapsed = (_perf_counter() - start - paused) * 1000.0
            return "null", describe_error(failure, self.filename), elapsed
        elapsed = (_perf_counter() - start - paused) * 1000.0
        try:
            return encode_value(result), None, elapsed
        except TooLarge as failure:
            return "null", too_large_error(failure), elapsed


def _read_job_line():
    stdin = sys.stdin
    if stdin is None:
        return b""
    return stdin.buffer.readline()


def _detach_stdin():
    """From now on stdin is empty: fd 0 is /dev/null and input() raises EOFError."""
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        if null != 0:
            os.dup2(null, 0)
            os.close(null)
    except OSError:
        pass
    sys.stdin = io.TextIOWrapper(io.BytesIO(b""), encoding="utf-8")


def main():
    channel = Channel(os.dup(1))
    version = "%d.%d.%d" % sys.version_info[:3]
    channel.send_raw(("\x1eready Python %s\n" % version).encode("ascii"))

    line = _read_job_line()
    _detach_stdin()
    if not line.strip():
        os._exit(2)
    previous = _get_digits() if _get_digits else None
    if _set_digits:
        _set_digits(0)
    try:
        job = json.loads(line)
    finally:
        if _set_digits and previous is not None:
            _set_digits(previous)
    channel.prefix = ("\x1e%s " % job["nonce"]).encode("utf-8")

    Harness(channel).run(job)
    _flush_stdio()
    # No user thread, atexit hook or broken stdio may change how the harness ends.
    os._exit(0)


if __name__ == "__main__":
    main()
