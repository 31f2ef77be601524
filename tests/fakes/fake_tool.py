#!/usr/bin/env python3
"""A stand-in load generator for what the real ones cannot be made to do on demand.

FAKE_MODE: crash (progress and request-log lines, then SIGSEGV), garbage (nonsense output,
exit 0), hang (ignores SIGINT and never ends). Answers --version like h2load 1.52.
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
elif mode == "hang":
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    print("starting benchmark...", flush=True)
    time.sleep(3600)
else:
    sys.stdout.buffer.write(b"\xff\xfe garbage \x00 finished in lots of req/s\n" * 50)
