"""A fork server for the lit suite: the project's Python tools started without paying Python's imports each time.

Most of a RUN line's cost is not its work but the start of each tool: `pypto-opt` imports xDSL and the dialect
(about 0.2 s of CPU), `pypto-run` the interpreter and NumPy as well (0.35 s), `filecheck` its package (0.07 s),
and a lit file starts several of them. This server imports all of that once, then serves each request by
forking: the child takes the requester's stdin, stdout and stderr (passed over a UNIX socket), its working
directory, environment and arguments, runs the tool's `main` exactly as the console script would, and reports
the exit status. Each run is a fresh fork of the same warm process, so no state passes from one run to the next.

    python forkserver.py SOCKET PARENT_PID      # lit.cfg.py starts it; it exits when PARENT_PID does

`forkclient.py` is the requester (the command lit's substitutions name); with no server it runs the real tool.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import struct
import sys
import traceback

# tool name -> (module, function): what each console script runs (pyproject's [project.scripts], filecheck's).
TOOLS = {
    "pypto-opt": ("pypto_mlir.tools.pypto_opt", "main"),
    "pypto-run": ("pypto_mlir.tools.pypto_run", "main"),
    "filecheck": ("filecheck.main", "main"),
}
# Imported before serving, besides the tools: what a run would import on first use (dialects the parser loads
# on demand, both passes, the interpreter and NumPy).
PRELOAD = (
    "xdsl.dialects.func",
    "xdsl.dialects.arith",
    "xdsl.dialects.scf",
    "pypto_mlir.dialects",
    "pypto_mlir.verify",
    "pypto_mlir.pipeline",
    "pypto_mlir.passes",
    "pypto_mlir.interpreter",
    "numpy",
)
HEADER = struct.Struct("!I")


def _import(name: str):
    module = __import__(name)
    for part in name.split(".")[1:]:
        module = getattr(module, part)
    return module


def _recv_request(conn: socket.socket) -> tuple[dict, list[int]]:
    data, fds, _flags, _addr = socket.recv_fds(conn, 1 << 16, 3)
    while len(data) < HEADER.size:
        data += conn.recv(1 << 16)
    (size,) = HEADER.unpack_from(data)
    while len(data) < HEADER.size + size:
        more = conn.recv(1 << 16)
        if not more:
            raise EOFError("request cut short")
        data += more
    return json.loads(data[HEADER.size : HEADER.size + size]), fds


def _exit_status(exc: SystemExit) -> int:
    """The status a Python process ends with on `SystemExit(code)` (a non-int code is printed, status 1)."""
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _fresh_stdio() -> None:
    """New `sys.stdin/stdout/stderr` over fds 0-2, made as Python's start makes them (same encodings; stderr
    line-buffered, stdout line-buffered only on a terminal; "\\n" newlines): the server's own were made over other
    files, and a tool that reconfigures its streams (filecheck does) must find fresh ones."""
    made = []
    for fd, mode, old in ((0, "r", sys.__stdin__), (1, "w", sys.__stdout__), (2, "w", sys.__stderr__)):
        line = fd == 2 or (fd == 1 and os.isatty(fd))
        stream = open(fd, mode, buffering=-1, encoding=old.encoding, errors=old.errors, newline="\n",
                      closefd=False)
        if line:
            stream.reconfigure(line_buffering=True)
        made.append(stream)
    sys.stdin, sys.stdout, sys.stderr = sys.__stdin__, sys.__stdout__, sys.__stderr__ = made


def _serve_one(conn: socket.socket) -> None:
    """In the forked child: become the requested tool run, then report its status and end."""
    status = 1
    try:
        request, fds = _recv_request(conn)
        for target, fd in zip((0, 1, 2), fds):
            os.dup2(fd, target)
        for fd in fds:
            if fd > 2:
                os.close(fd)
        _fresh_stdio()
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        module, func = TOOLS[request["tool"]]
        sys.argv = [request["argv0"], *request["args"]]
        try:
            result = getattr(_import(module), func)()
            status = _exit_status(SystemExit(result))
        except SystemExit as exc:
            status = _exit_status(exc)
        except BaseException:  # what an uncaught exception does to a Python process: traceback, status 1
            traceback.print_exc()
            status = 1
    except BaseException:
        traceback.print_exc()
        status = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BaseException:  # a closed pipe: the status still goes back
                pass
        try:
            conn.sendall(HEADER.pack(status))
        finally:
            os._exit(status)


def serve(path: str, parent: int) -> None:
    for name in PRELOAD:
        try:
            _import(name)
        except ImportError:  # an optional piece missing: the tool imports it (or fails) itself
            pass
    for module, _func in TOOLS.values():
        _import(module)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path + ".tmp")
    listener.listen(64)
    os.rename(path + ".tmp", path)  # the socket appears only once it accepts
    listener.settimeout(0.5)
    while True:
        try:
            conn, _ = listener.accept()
        except TimeoutError:
            if os.getppid() != parent:  # lit has ended
                os.unlink(path)
                return
            continue
        conn.settimeout(None)
        if os.fork() == 0:
            listener.close()
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the tool may wait for its own subprocesses
            _serve_one(conn)
        conn.close()


if __name__ == "__main__":
    serve(sys.argv[1], int(sys.argv[2]))
