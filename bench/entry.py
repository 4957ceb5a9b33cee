#!/usr/bin/env python3
"""Order entry three ways against one durable service, in turns: single REST orders, REST batches and WebSocket
sessions (issue 35's targets). Run through bench/entry.sh, which builds the jar and the C generators first.

One fresh service (bin/order-entry's JVM flags, durable: journal fsync, audit trail, PostgreSQL in a database of its
own, dropped afterwards; API keys as it ships, 64 of them, each of its own account), warmed up with wrk for
STARTWARMUP seconds; then RUNS rounds, the order of the modes rotated each round so that the book's growth and the
machine's drift fall on every mode alike:
  - closed loop, the same line for all three: 64 connections (wrk -t2 -c64 with loadtest/order-submission.lua; wrk
    -t2 -c64 with loadtest/batch.lua, 20 orders a request; target/wsload window=1 on 64 sessions, one order per
    message), SECONDS each after a 5 s unrecorded warm-up of the same load; and wsload window=WSWINDOW, the sessions
    sending without waiting for each answer, as a market maker's do;
  - fixed rate, RATE orders a second, coordinated omission corrected: target/fixedrate (REST, 64 connections) and
    target/wsload rate=RATE (64 sessions), SECONDS recorded after WARMUP.
Each window's orders are the service's own count (orders_commands_total{result="PLACED"}), and its CPU is the service
process's user + system time from /proc over the window, so the three modes are measured the same way. Prints each
run and the medians, with the ratios the issue sets targets for:
  - WebSocket orders/s >= 2 x REST's; batch orders/s >= 3 x REST's (closed loop);
  - WebSocket p99 at RATE <= REST's; service CPU per order over WebSocket <= 0.5 x REST's (at RATE).

  bench/entry.sh [runs=3] [seconds=20] [rate=5000] [warmup=5] [startwarmup=40] [batchconnections=64] [wswindow=8]
"""
import os, re, resource, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import SERVICE_OPTS, Keys, arg, free_port, metrics, metric, service_env, stop, threads, wait_http  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HZ = os.sysconf("SC_CLK_TCK")
RUNS = int(arg("runs", "3"))
SECONDS = int(arg("seconds", "20"))
RATE = int(arg("rate", "5000"))
WARMUP = int(arg("warmup", "5"))
START_WARMUP = int(arg("startwarmup", "40"))
BATCH_CONNECTIONS = int(arg("batchconnections", "64"))
# a market maker's session sends without waiting for each answer: the closed loop is also run with this many orders in
# flight per session (0: not run), beside the one-at-a-time line that matches wrk's
WS_WINDOW = int(arg("wswindow", "8"))
CONNECTIONS = 64
JAVA_OPTS = os.environ.get("JAVA_OPTS", SERVICE_OPTS).split()
PLACED = 'orders_commands_total{result="PLACED"}'


def cpu_ticks(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def postgres_ticks():
    """User + system ticks of every postgres process now (the server and its backends, new ones included)."""
    total = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/comm") as f:
                if f.read().strip() != "postgres":
                    continue
            total += cpu_ticks(pid)
        except OSError:
            continue
    return total


def machine_ticks():
    """(busy, all) ticks of the whole machine from /proc/stat."""
    with open("/proc/stat") as f:
        fields = [int(v) for v in f.readline().split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


def children_ticks():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (usage.ru_utime + usage.ru_stime) * HZ


class Window:
    """The service's orders placed and CPU over one measured window."""

    def __init__(self, url, pid):
        self.url, self.pid = url, pid

    def __enter__(self):
        self.placed = metric(metrics(self.url), PLACED)
        self.ticks = cpu_ticks(self.pid)
        self.threads = threads(self.pid)
        self.postgres = postgres_ticks()
        self.machine = machine_ticks()
        self.children = children_ticks()
        self.start = time.time()
        return self

    def __exit__(self, *exc):
        self.seconds = time.time() - self.start
        self.orders = metric(metrics(self.url), PLACED) - self.placed
        self.cpu_us = (cpu_ticks(self.pid) - self.ticks) / HZ * 1e6
        after = threads(self.pid)
        self.by_thread = {k: (after[k][0] - self.threads.get(k, [0])[0]) / HZ * 1e6 for k in after}
        self.postgres_us = (postgres_ticks() - self.postgres) / HZ * 1e6
        busy, total = machine_ticks()
        self.machine_busy = (busy - self.machine[0]) / max(1, total - self.machine[1])   # share of all cores
        self.generator_us = (children_ticks() - self.children) / HZ * 1e6
        return False

    def costs(self):
        """µs per order of the service, PostgreSQL and the load generator, and the machine's busy share."""
        n = max(1, self.orders)
        return (f"service {self.cpu_us / n:.1f} + PostgreSQL {self.postgres_us / n:.1f} + generator"
                f" {self.generator_us / n:.1f} µs/order; machine {self.machine_busy * 100:.0f}% busy")

    def loops_per_order(self):
        """The event loops' CPU per order (the HTTP and stream edge), µs."""
        return sum(v for k, v in self.by_thread.items() if k.startswith("vert.x-eventloo")) / max(1, self.orders)

    def breakdown(self):
        """The threads that took the most CPU per order, as text."""
        top = sorted(self.by_thread.items(), key=lambda kv: -kv[1])[:6]
        return ", ".join(f"{k} {v / max(1, self.orders):.1f}" for k, v in top if v > 0)

    def per_second(self):
        return self.orders / self.seconds

    def cpu_per_order(self):
        return self.cpu_us / max(1, self.orders)


def wrk(url, keys, script, connections, seconds):
    env = keys.load(dict(os.environ, ORDERS_LOADTEST_DIR=os.path.join(ROOT, "loadtest"),
                         ORDERS_RUN_ID=str(int(time.time() * 1000))))
    out = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "-s",
                          os.path.join(ROOT, "loadtest", script), url], env=env, cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    non2xx = re.search(r"non2xx=(\d+)", out)
    return int(non2xx.group(1)) if non2xx else -1


def generator(command):
    out = subprocess.run(command, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited with {out.returncode}: {out.stderr.strip()[-2000:]}")
    name = os.path.basename(command[0])
    line = [l for l in out.stdout.splitlines() if l.startswith(name + " ")]
    if len(line) != 1:
        raise SystemExit(f"{' '.join(command)} printed no result line: {out.stdout!r}")
    fields = {}
    for field in line[0].split()[1:]:
        key, value = field.split("=", 1)
        try:
            fields[key] = float(value)
        except ValueError:
            fields[key] = value
    return fields


def wsload(port, keys, mode, seconds, warmup):
    return generator([os.path.join(ROOT, "target", "wsload"), "127.0.0.1", str(port), mode, str(seconds),
                      str(warmup), str(CONNECTIONS), keys.secrets_file])


def fixedrate(port, keys, seconds, warmup):
    return generator([os.path.join(ROOT, "target", "fixedrate"), "127.0.0.1", str(port), str(RATE), str(seconds),
                      str(warmup), str(CONNECTIONS), keys.secrets_file])


def closed_loop(mode, url, port, pid, keys):
    """One closed-loop window of a mode after WARMUP seconds of the same load; returns (orders/s, CPU µs/order)."""
    if mode == "rest":
        wrk(url, keys, "order-submission.lua", CONNECTIONS, WARMUP)
        with Window(url, pid) as w:
            bad = wrk(url, keys, "order-submission.lua", CONNECTIONS, SECONDS)
    elif mode == "batch":
        wrk(url, keys, "batch.lua", BATCH_CONNECTIONS, WARMUP)
        with Window(url, pid) as w:
            bad = wrk(url, keys, "batch.lua", BATCH_CONNECTIONS, SECONDS)
    else:
        window = 1 if mode == "ws" else WS_WINDOW
        wsload(port, keys, f"window={window}", WARMUP, 0)
        with Window(url, pid) as w:
            out = wsload(port, keys, f"window={window}", SECONDS, 0)
        bad = int(out["non2xx"] + out["errors"])
    if bad != 0:
        print(f"  ! {mode}: {bad} answers other than 2xx", file=sys.stderr)
    print(f"    {w.costs()}; service threads µs/order: {w.breakdown()}", flush=True)
    return w.per_second(), w.cpu_per_order(), w.loops_per_order(), w.postgres_us / max(1, w.orders)


def fixed(mode, url, port, pid, keys):
    """One fixed-rate window at RATE; returns (p50, p99, p99.9 in ms, service CPU µs/order)."""
    with Window(url, pid) as w:
        out = fixedrate(port, keys, SECONDS, WARMUP) if mode == "rest" else wsload(port, keys, f"rate={RATE}",
                                                                                    SECONDS, WARMUP)
    print(f"    {w.costs()}; service threads µs/order: {w.breakdown()}", flush=True)
    return out["p50_us"] / 1000, out["p99_us"] / 1000, out["p999_us"] / 1000, w.cpu_per_order(), w.loops_per_order()


def main():
    jar = os.environ.get("ORDERS_JAR", os.path.join(ROOT, "target", "order-entry.jar"))
    keys = Keys("keys", 64, jar=jar)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    work = tempfile.mkdtemp(prefix="oe-entry-")
    db = f"oe_entry_{os.getpid()}"
    env = keys.service(service_env(work, port, "durable", db))
    env["ORDERS_SNAPSHOT_DIR"] = os.path.join(work, "snapshots")
    log = open(os.path.join(work, "service.log"), "w")
    proc = subprocess.Popen(["java"] + JAVA_OPTS + ["-jar", jar], env=env, stdout=log, stderr=subprocess.STDOUT)
    loops = {m: [] for m in ("rest", "batch", "ws", "wsw")}
    rates = {m: [] for m in ("rest", "ws")}
    try:
        wait_http(url, proc)
        print(f"== service durable (journal fsync, audit, PostgreSQL), {keys.describe()}; warm-up {START_WARMUP} s",
              flush=True)
        wrk(url, keys, "order-submission.lua", CONNECTIONS, START_WARMUP // 2)
        wsload(port, keys, "window=1", START_WARMUP // 2, 0)
        order = ["rest", "batch", "ws"] + (["wsw"] if WS_WINDOW > 0 else [])
        for run in range(RUNS):
            for mode in order[run % len(order):] + order[:run % len(order)]:
                result = closed_loop(mode, url, port, proc.pid, keys)
                loops[mode].append(result)
                print(f"run {run + 1} closed loop {mode:5s}: {result[0]:9,.0f} orders/s, service CPU"
                      f" {result[1]:6.1f} µs/order (event loops {result[2]:.1f})", flush=True)
            for mode in (["rest", "ws"] if run % 2 == 0 else ["ws", "rest"]):
                result = fixed(mode, url, port, proc.pid, keys)
                rates[mode].append(result)
                print(f"run {run + 1} {RATE}/s {mode:5s}: p50 {result[0]:.2f} p99 {result[1]:.2f} p99.9"
                      f" {result[2]:.2f} ms, service CPU {result[3]:6.1f} µs/order (event loops {result[4]:.1f})",
                      flush=True)
    finally:
        stop(proc)
        subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", db], check=False,
                       stderr=subprocess.DEVNULL)

    def med(values, i):
        return statistics.median(v[i] for v in values)

    rest, batch, ws = (med(loops[m], 0) for m in ("rest", "batch", "ws"))
    print(f"\nmedians of {RUNS} runs ({SECONDS} s windows, 64 connections or sessions):")
    print(f"  closed loop orders/s: REST {rest:,.0f}, batches of 20 {batch:,.0f} ({batch / rest:.2f} x REST,"
          f" target 3 x), WebSocket {ws:,.0f} ({ws / rest:.2f} x REST, target 2 x)")
    if WS_WINDOW > 0:
        wsw = med(loops["wsw"], 0)
        print(f"  WebSocket with {WS_WINDOW} orders in flight per session: {wsw:,.0f} orders/s ({wsw / rest:.2f} x REST),"
              f" service CPU {med(loops['wsw'], 1):.1f} µs/order, event loops {med(loops['wsw'], 2):.1f}")
    print(f"  closed loop PostgreSQL CPU µs/order: REST {med(loops['rest'], 3):.1f}, batches {med(loops['batch'], 3):.1f},"
          f" WebSocket {med(loops['ws'], 3):.1f}")
    print(f"  closed loop service CPU µs/order: REST {med(loops['rest'], 1):.1f}, batches {med(loops['batch'], 1):.1f},"
          f" WebSocket {med(loops['ws'], 1):.1f}; of it the event loops: REST {med(loops['rest'], 2):.1f}, batches"
          f" {med(loops['batch'], 2):.1f}, WebSocket {med(loops['ws'], 2):.1f}")
    p99_rest, p99_ws = med(rates["rest"], 1), med(rates["ws"], 1)
    cpu_rest, cpu_ws = med(rates["rest"], 3), med(rates["ws"], 3)
    print(f"  at {RATE}/s: p50 REST {med(rates['rest'], 0):.2f} / WebSocket {med(rates['ws'], 0):.2f} ms;"
          f" p99 REST {p99_rest:.2f} / WebSocket {p99_ws:.2f} ms ({p99_ws / p99_rest:.2f} x, target <= 1 x);"
          f" p99.9 REST {med(rates['rest'], 2):.2f} / WebSocket {med(rates['ws'], 2):.2f} ms")
    print(f"  at {RATE}/s service CPU µs/order: REST {cpu_rest:.1f}, WebSocket {cpu_ws:.1f}"
          f" ({cpu_ws / cpu_rest:.2f} x, target <= 0.5 x); event loops REST {med(rates['rest'], 4):.1f}, WebSocket"
          f" {med(rates['ws'], 4):.1f} ({med(rates['ws'], 4) / med(rates['rest'], 4):.2f} x)")


if __name__ == "__main__":
    main()
