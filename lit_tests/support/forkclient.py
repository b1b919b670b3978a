"""What lit's `pypto-opt`, `pypto-run` and `filecheck` substitutions run: the tool, through the fork server.

    python -S forkclient.py TOOL REAL_PATH ARGS...

Sends this process's stdin, stdout and stderr, working directory, environment and ARGS to the server named by
`PYPTO_LIT_FORKSERVER` (see forkserver.py) and ends with the status of the run. With no server (the variable
unset, or the socket gone) it becomes the real tool: `exec REAL_PATH ARGS...`. Started with `-S`, it imports only
the standard library, so it costs a bare interpreter's start.
"""

import json
import os
import socket
import struct
import sys

HEADER = struct.Struct("!I")


def main() -> None:
    tool, real, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    path = os.environ.get("PYPTO_LIT_FORKSERVER")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        if not path:
            raise OSError("no fork server")
        sock.connect(path)
    except OSError:
        sock.close()
        os.execv(real, [real, *args])
    env = {k: v for k, v in os.environ.items() if k != "PYPTO_LIT_FORKSERVER"}
    body = json.dumps({"tool": tool, "argv0": real, "args": args, "cwd": os.getcwd(), "env": env}).encode()
    data = HEADER.pack(len(body)) + body
    sent = socket.send_fds(sock, [data[: 1 << 15]], [0, 1, 2])
    if sent < len(data):  # never a send after the whole request: the run may have ended and closed the socket
        sock.sendall(data[sent:])
    reply = b""
    while len(reply) < HEADER.size:
        more = sock.recv(HEADER.size - len(reply))
        if not more:  # the run died without a status (a crash of the interpreter itself)
            sys.stderr.write(f"{tool}: the forked run ended without a status\n")
            sys.exit(1)
        reply += more
    sys.exit(HEADER.unpack(reply)[0])


if __name__ == "__main__":
    main()
