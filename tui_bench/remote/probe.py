"""The program that samples a server on its own host, run there as `python3 -c PROGRAM`.

It needs nothing but python3's standard library and /proc, writes nothing, and leaves no
process behind: it ends when its standard input closes, which is when the SSH connection
does (tuibench stopping, killed or cut off), and when its output can no longer be written.

Protocol, one JSON object per line on stdout: first `{"found": {...}}` (the server's root
pid, name and command line, and the host's cores) or `{"error": "..."}`; then a reading per
interval `{"t": wall time, "cpu": tree %, "rss": bytes, "procs": n, "cores": [% ...],
"mem_used": bytes, "mem_total": bytes, "self": the probe's own CPU %}`. Each line `p` read
on stdin is answered at once with `{"pong": wall time}`, to measure the clock offset.
Percentages count 100 per core, as the local sampler's do.
"""

from __future__ import annotations

PROGRAM = r'''
import json, os, sys, threading, time

HZ = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")
RESCAN_EVERY_S = 2.0
out_lock = threading.Lock()


def say(obj):
    line = json.dumps(obj, separators=(",", ":")) + "\n"
    with out_lock:
        try:
            sys.stdout.write(line)
            sys.stdout.flush()
        except (BrokenPipeError, OSError):
            os._exit(0)


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8", "replace")
    except OSError:
        return None


def stat(pid):
    """(comm, ppid, utime+stime ticks) or None when the process is gone."""
    text = read("/proc/%d/stat" % pid)
    if text is None:
        return None
    comm = text[text.index("(") + 1 : text.rindex(")")]
    fields = text[text.rindex(")") + 2 :].split()
    return comm, int(fields[1]), int(fields[11]) + int(fields[12])


def pids():
    return [int(p) for p in os.listdir("/proc") if p.isdigit()]


def climb(pid):
    """Up the tree while the parent has the same name (nginx worker -> master)."""
    me = os.getpid()
    while True:
        own = stat(pid)
        if own is None:
            return pid
        parent = stat(own[1]) if own[1] > 1 else None
        if parent is None or parent[0] != own[0] or own[1] == me:
            return pid
        pid = own[1]


def listening(port):
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in (read(table) or "").splitlines()[1:]:
            parts = line.split()
            if len(parts) > 9 and parts[3] == "0A" and int(parts[1].rsplit(":", 1)[1], 16) == port:
                inodes.add("socket:[%s]" % parts[9])
    found = set()
    for pid in pids():
        try:
            fds = os.listdir("/proc/%d/fd" % pid)
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink("/proc/%d/fd/%s" % (pid, fd)) in inodes:
                    found.add(pid)
                    break
            except OSError:
                continue
    return found


def find(mode, value):
    if mode == "pid":
        pid = int(value)
        return ({pid} if stat(pid) else set()), "no process with pid %s" % value
    if mode == "name":
        named = set()
        for pid in pids():
            own = stat(pid)
            if own and own[0] == value:
                named.add(pid)
        return named, "no process named %r" % value
    return listening(int(value)), "nothing listens on port %s" % value


def tree(root):
    children = {}
    for pid in pids():
        own = stat(pid)
        if own:
            children.setdefault(own[1], []).append(pid)
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, ()))
    return found


def cpu_lines():
    lines = [l.split() for l in (read("/proc/stat") or "").splitlines() if l.startswith("cpu")]
    # (busy, all) ticks per core: busy leaves out idle and iowait.
    found = []
    for l in lines[1:]:
        ticks = [int(v) for v in l[1:9]]
        found.append((sum(ticks) - ticks[3] - ticks[4], sum(ticks)))
    return found


def memory():
    info = {}
    for line in (read("/proc/meminfo") or "").splitlines():
        key, _, rest = line.partition(":")
        info[key] = int(rest.split()[0]) * 1024 if rest.split() else 0
    total = info.get("MemTotal", 0)
    return total - info.get("MemAvailable", info.get("MemFree", 0)), total


def answer_pings():
    for line in sys.stdin:
        if line.strip() == "p":
            say({"pong": time.time()})
    os._exit(0)


def main():
    interval, mode, value = float(sys.argv[1]), sys.argv[2], sys.argv[3]
    found, missing = find(mode, value)
    roots = sorted({climb(pid) for pid in found})
    if not roots:
        say({"error": missing})
        return
    if len(roots) > 1:
        pids_text = ", ".join(map(str, roots))
        say({"error": "several processes (pids %s): give the server's pid" % pids_text})
        return
    root = roots[0]
    cmdline = (read("/proc/%d/cmdline" % root) or "").split("\0")
    args = [a for a in cmdline if a]
    say({"found": {"pid": root, "name": stat(root)[0], "cmdline": args, "cores": os.cpu_count()}})
    threading.Thread(target=answer_pings, daemon=True).start()
    members, scanned = tree(root), time.monotonic()
    ticks, cores = {}, cpu_lines()
    own, last = os.times(), time.monotonic()
    for pid in members:
        s = stat(pid)
        if s:
            ticks[pid] = s[2]
    next_at = last + interval
    while True:
        time.sleep(max(0.0, next_at - time.monotonic()))
        next_at += interval
        now = time.monotonic()
        if now - scanned >= RESCAN_EVERY_S:
            members, scanned = tree(root), now
        if stat(root) is None:
            say({"error": "the server (pid %d) exited" % root, "exited": root})
            return
        elapsed, used, rss, alive, seen = now - last, 0, 0, 0, {}
        for pid in members:
            s = stat(pid)
            statm = read("/proc/%d/statm" % pid)
            if s is None or statm is None:
                continue
            alive += 1
            seen[pid] = s[2]
            used += s[2] - ticks.get(pid, s[2])
            rss += int(statm.split()[1]) * PAGE
        ticks = seen
        fresh = cpu_lines()
        per_core = [
            100.0 * (b1 - b0) / (t1 - t0) if t1 > t0 else 0.0
            for (b0, t0), (b1, t1) in zip(cores, fresh)
        ]
        cores = fresh
        mine = os.times()
        self_pct = 100.0 * (mine[0] + mine[1] - own[0] - own[1]) / elapsed
        own, last = mine, now
        mem_used, mem_total = memory()
        say({"t": time.time(), "cpu": 100.0 * used / HZ / elapsed, "rss": rss, "procs": alive,
             "cores": [round(c, 1) for c in per_core], "mem_used": mem_used, "mem_total": mem_total,
             "self": round(self_pct, 2)})


main()
'''
