#!/usr/bin/env python3
"""A stand-in load generator for what the real ones cannot be made to do on demand.

FAKE_MODE: crash (progress and request-log lines, then SIGSEGV), garbage (nonsense output,
exit 0), hang (ignores SIGINT and never ends), over-and-hang (a second of requests, then says
its time is over and never exits, as h2load 1.52 does against a server closing each
connection). Answers --version like h2load 1.52.
"""

import os
import signal
import sys
import time

if "--version" in sys.argv:
    print("h2load nghttp2/1.52.0")
    sys.exit(0)

mode = os.environ.get("FAKE_MODE", "garbage")
log_arg = next((a for a in sys.argv if a.startswith("--log-file=")), None)
if mode == "crash":
    print("starting benchmark...", flush=True)
    if log_arg:
        with open(log_arg.split("=", 1)[1], "a") as log:
            now = time.time_ns() // 1000
            for i in range(500):
                log.write(f"{now + i * 1000}\t200\t{150 + i}\n")
    print("progress: 10% done", flush=True)
    time.sleep(1.5)
    os.kill(os.getpid(), signal.SIGSEGV)
elif mode == "over-and-hang":
    print("starting benchmark...", flush=True)
    print("Main benchmark duration is started for thread #0.", flush=True)
    with open(log_arg.split("=", 1)[1], "a") as log:
        end = time.monotonic() + 1.2
        while time.monotonic() < end:
            log.write(f"{time.time_ns() // 1000}\t200\t100\n")
            log.flush()
            time.sleep(0.01)
    print("Main benchmark duration is over for thread #0. Stopping all clients.", flush=True)
    time.sleep(3600)
elif mode == "hang":
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    print("starting benchmark...", flush=True)
    time.sleep(3600)
else:
    sys.stdout.buffer.write(b"\xff\xfe garbage \x00 finished in lots of req/s\n" * 50)
