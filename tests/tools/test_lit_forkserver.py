"""The lit suite's fork server (lit_tests/support/): a tool run through it is the same run as the tool started on
its own — exit status, stdout and stderr byte for byte, stdin, working directory and environment passed — and
without a server the client runs the real tool."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SUPPORT = ROOT / "lit_tests" / "support"
BIN = Path(sys.executable).parent
EXAMPLE = ROOT / "examples" / "matmul_softmax.a2a3.mlir"


def _tool(name: str) -> str:
    path = BIN / name
    found = str(path) if path.exists() else shutil.which(name)
    if not found:
        pytest.skip(f"{name} is not installed")
    return found


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    sock = str(tmp_path_factory.mktemp("fs") / "tools.sock")
    proc = subprocess.Popen(
        [sys.executable, str(SUPPORT / "forkserver.py"), sock, str(os.getpid())],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while not os.path.exists(sock):
        assert proc.poll() is None and time.monotonic() < deadline, "the fork server did not start"
        time.sleep(0.02)
    yield sock
    proc.kill()
    proc.wait()


def _client(tool: str, *args: str) -> list[str]:
    return [sys.executable, "-S", str(SUPPORT / "forkclient.py"), tool, _tool(tool), *args]


def _run(cmd, sock=None, stdin=None, cwd=None, extra_env=None):
    env = dict(os.environ)
    env.pop("PYPTO_LIT_FORKSERVER", None)
    if sock:
        env["PYPTO_LIT_FORKSERVER"] = sock
    env.update(extra_env or {})
    r = subprocess.run(cmd, input=stdin, capture_output=True, cwd=cwd, env=env, timeout=120)
    return r.returncode, r.stdout, r.stderr


CASES = [
    pytest.param("pypto-opt", [str(EXAMPLE), "--lower-auto-vector-split", "--expand-mixed-kernel"], None, id="opt-pipeline"),
    pytest.param("pypto-opt", ["-"], b"func.func @f( {\n", id="opt-error-from-stdin"),
    pytest.param("pypto-opt", ["--no-such-option"], None, id="opt-usage-error"),
    pytest.param("pypto-run", ["--check-pipeline", "lower-auto-vector-split,expand-mixed-kernel", str(EXAMPLE)], None,
                 id="run-check-pipeline"),
    pytest.param("filecheck", [str(EXAMPLE)], b"no such text\n", id="filecheck-fails"),
    pytest.param("filecheck", [str(EXAMPLE), "--check-prefix=RUN"], EXAMPLE.read_bytes(), id="filecheck-passes"),
]


@pytest.mark.parametrize("tool,args,stdin", CASES)
def test_served_run_is_the_direct_run(server, tool, args, stdin):
    direct = _run([_tool(tool), *args], stdin=stdin)
    served = _run(_client(tool, *args), sock=server, stdin=stdin)
    assert served == direct


def test_cwd_and_environment_reach_the_run(server, tmp_path):
    (tmp_path / "in.mlir").write_text(EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    # A relative input name resolves against the requester's directory; PYPTO_DEBUG is read by the run.
    args = ["in.mlir", "--lower-auto-vector-split", "--expand-mixed-kernel"]
    served = _run(_client("pypto-opt", *args), sock=server, cwd=tmp_path, extra_env={"PYPTO_DEBUG": "1"})
    direct = _run([_tool("pypto-opt"), *args], cwd=tmp_path, extra_env={"PYPTO_DEBUG": "1"})
    assert served == direct and served[0] == 0


def test_runs_are_served_not_started(server):
    """A served run does not import xDSL in the requesting process: it takes a fraction of a direct start."""
    def cpu(cmd, sock):
        before = os.times()
        _run(cmd, sock=sock)
        after = os.times()
        return after.children_user + after.children_system - before.children_user - before.children_system

    empty_args = ["--help"]
    served = min(cpu(_client("pypto-opt", *empty_args), server) for _ in range(3))
    direct = min(cpu([_tool("pypto-opt"), *empty_args], None) for _ in range(3))
    assert served < direct / 2, (served, direct)


def test_without_a_server_the_client_runs_the_tool():
    args = [str(EXAMPLE), "--expand-mixed-kernel"]
    assert _run(_client("pypto-opt", *args)) == _run([_tool("pypto-opt"), *args])
    assert _run(_client("pypto-opt", *args), sock="/nonexistent/tools.sock") == _run([_tool("pypto-opt"), *args])


def test_server_ends_with_its_parent(tmp_path):
    sock = str(tmp_path / "tools.sock")
    starter = (
        "import subprocess, sys, os, time\n"
        f"p = subprocess.Popen([sys.executable, {str(SUPPORT / 'forkserver.py')!r}, {sock!r}, str(os.getpid())],"
        " stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)\n"
        f"while not os.path.exists({sock!r}): time.sleep(0.02)\n"
        "print(p.pid)\n"
    )
    pid = int(subprocess.run([sys.executable, "-c", starter], capture_output=True, text=True, timeout=120).stdout)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
            if Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] == "Z":
                break  # ended, not yet reaped by whoever adopted it
        except (ProcessLookupError, FileNotFoundError):
            break
        time.sleep(0.1)
    else:
        os.kill(pid, 9)
        pytest.fail("the fork server outlived its parent")
    assert not os.path.exists(sock)
