#!/usr/bin/env python3
"""The interactive screen while the APNs endpoint is under load (issue 28.7).

Runs the interactive `unterm --apns-listen` in a pseudo-terminal of 80x24 and measures how long a
key takes to reach the screen: `?` is pressed and the time until the keys overlay is drawn is
taken, then any key closes it. First with nothing arriving (the floor), then while h2load sends
pushes over 10 connections with 100 streams each. Prints p50/p99 beside the floor's.

    Scripts/apns-screen-load.py UNTERM PORT TOKEN PAYLOAD JWT PUSHES

Exits non-zero when the session does not start, a key is never drawn within 5 s, or h2load
reports a push not answered 200 (the benchmark's own check of delivery is `apns-bench.sh`'s).
"""

import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time

unterm, port, token, payload, jwt, pushes = sys.argv[1:7]
OPENED = b"close this overlay"


def start():
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update(TERM="xterm-256color", LANG="C.UTF-8")
        os.execv(unterm, [unterm, "--apns-listen", port, "--apns-plaintext",
                          "--device-token", f"com.example.chat={token}", "--bundle", "com.example.chat"])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    return pid, fd


def read_until(fd, needle, seconds):
    """Reads the terminal until `needle` is drawn; the seconds it took, or None."""
    started, seen = time.monotonic(), b""
    while time.monotonic() - started < seconds:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if not ready:
            continue
        try:
            seen += os.read(fd, 65536)
        except OSError:
            return None
        if needle in seen:
            return time.monotonic() - started
        seen = seen[-len(needle):]
    return None


def drain(fd, quiet):
    """Reads until the terminal has been quiet for `quiet` seconds (at most 2 s)."""
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        if not select.select([fd], [], [], quiet)[0]:
            return
        os.read(fd, 65536)


def round_trip(fd):
    """`?` until the overlay is drawn, in milliseconds; then a key closes it."""
    drain(fd, 0.02)
    os.write(fd, b"?")
    took = read_until(fd, OPENED, 5)
    os.write(fd, b"x")
    drain(fd, 0.05)
    if took is None:
        sys.exit("apns-screen-load: a key was not drawn within 5 s")
    return took * 1000


def figures(name, times):
    times = sorted(times)
    p = lambda q: times[min(len(times) - 1, int(q * len(times)))]
    print(f"{name:<34} p50 {p(0.5):>7.2f} ms   p99 {p(0.99):>7.2f} ms   ({len(times)} keys)")


pid, fd = start()
try:
    if read_until(fd, b"No notifications", 30) is None:
        sys.exit("apns-screen-load: the interactive session did not start")
    idle = [round_trip(fd) for _ in range(30)]
    load = subprocess.Popen(
        ["h2load", "-n", pushes, "-c", "10", "-m", "100", "-d", payload, "-H", "apns-topic: com.example.chat",
         "-H", f"authorization: bearer {jwt}", f"http://127.0.0.1:{port}/3/device/{token}"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    busy = []
    while load.poll() is None or len(busy) < 30:
        busy.append(round_trip(fd))
    report = load.stdout.read()
    print(f"the screen while {pushes} pushes arrive (interactive session, 80x24):")
    figures("a key drawn, nothing arriving", idle)
    figures("a key drawn, under load", busy)
    answered = [line for line in report.splitlines() if line.startswith("status codes:")]
    print("h2load", answered[0] if answered else report.strip().splitlines()[-1])
    if not answered or f"{pushes} 2xx" not in answered[0]:
        sys.exit("apns-screen-load: not every push was answered 200:\n" + report)
finally:
    os.kill(pid, signal.SIGTERM)
    os.waitpid(pid, 0)
