#!/usr/bin/env python3
"""Send commands to a QEMU human monitor (HMP) on a Unix socket.

Usage: hmp-send.py SOCKET [DELAY:]COMMAND...

Each COMMAND is sent after the monitor's prompt; its reply goes to
stdout. A COMMAND written DELAY:COMMAND (DELAY in seconds) is sent that
many seconds after the previous reply, so that a hung guest has time to
print what the previous key asked for. Exits 1 if the socket cannot be
reached or the monitor stops answering.
"""
import re
import socket
import sys
import time

PROMPT = b"(qemu) "


def read_to_prompt(sock, deadline):
    buf = b""
    while not buf.endswith(PROMPT):
        sock.settimeout(max(0.1, deadline - time.monotonic()))
        chunk = sock.recv(65536)
        if not chunk:
            raise OSError("the monitor closed the connection")
        buf += chunk
    return buf[: -len(PROMPT)]


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(10)
        sock.connect(argv[1])
        read_to_prompt(sock, time.monotonic() + 10)
        for arg in argv[2:]:
            m = re.fullmatch(r"(\d+):(.*)", arg)
            delay, cmd = (int(m[1]), m[2]) if m else (0, arg)
            time.sleep(delay)
            sock.sendall(cmd.encode() + b"\n")
            reply = read_to_prompt(sock, time.monotonic() + 30)
            # The first line is HMP's echo of the command, redrawn with
            # terminal escapes once per character: drop it.
            text = reply.split(b"\n", 1)[1] if b"\n" in reply else b""
            sys.stdout.write(f"(qemu) {cmd}\n")
            sys.stdout.write(text.decode(errors="replace").replace("\r", ""))
    except OSError as e:
        sys.stderr.write(f"hmp-send: {argv[1]}: {e}\n")
        return 1
    finally:
        sock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
