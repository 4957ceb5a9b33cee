#!/usr/bin/env python3
"""What one order costs, stage by stage, under a wrk load; next to the JSON-only Vert.x server.

Run through bench/stages.sh, which builds the jar and the baseline first. For each target (the JSON-only
server, then the service) it starts a fresh process, warms it up with wrk, then measures one wrk window
and reads, before and after it:
  - /proc/PID/task/*: CPU (utime+stime, and stime alone: the kernel's share) and context switches
    (voluntary + involuntary = wake-ups and preemptions) of every thread, summed by thread name (Linux keeps 15 characters of it);
  - the service's /metrics: heap bytes allocated per thread (orders_thread_allocated_bytes_total);
  - PostgreSQL: CPU of every postgres process plus what the postmaster reaped from exited children;
  - wrk's own CPU (getrusage of children), since it shares the two cores with what it measures;
  - the GC log (-Xlog:gc, gc+phases=debug) lines written in the window: pause count, percentiles, share of wall time,
    the G1 workers' card scanning and copying per pause, and the heap
    allocated between the collections (the only allocation figure the JSON-only server has).
After wrk ends it waits until the service has answered everything and PostgreSQL has caught up, so
the database's work for the window's orders is inside the window. Everything is divided by the
requests wrk completed. Only loopback addresses are used; every process it starts is stopped.

auth=keys (default): the service asks for API keys, as it ships, with its default rate limits; wrk spreads the orders
over 64 keys made with the jar's `keys create` (benchlib.Keys), far more than the limits need, and the JSON-only server
gets the same requests. auth=none: ORDERS_AUTH=none and orders that name their accounts, for measuring what
authentication costs (and for jars older than it: ORDERS_JAR).
"""
import os, re, resource, signal, socket, subprocess, sys, tempfile, time, urllib.request, shutil

HZ = os.sysconf("SC_CLK_TCK")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from benchlib import SERVICE_OPTS, Keys, arg, free_port, metric, metrics, service_env, stop, threads, wait_http, \
    wait_port  # noqa: E402

SECONDS = int(arg("seconds", "30"))
WARMUP = int(arg("warmup", "60"))
MODE = arg("mode", "durable")          # durable: fsync + audit + PostgreSQL; memory: journal none, no database
BASELINE = arg("baseline", "yes") == "yes"
AUTH = arg("auth", "keys")             # keys: the service asks for API keys, as it ships; none: ORDERS_AUTH=none
WRK_THREADS, WRK_CONNECTIONS = arg("wrk", "2x64").split("x")
JAVA = os.environ.get("JAVA", "java")
JAVA_OPTS = os.environ.get("JAVA_OPTS", SERVICE_OPTS).split()


def postgres_ticks():
    total = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        if stat[stat.index("(") + 1:stat.rindex(")")] != "postgres":
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        total += int(fields[11]) + int(fields[12])
        if fields[1] == "1" or not postgres_parent(fields[1]):   # the postmaster: add its reaped children
            total += int(fields[13]) + int(fields[14])
    return total


def postgres_parent(ppid):
    try:
        with open(f"/proc/{ppid}/comm") as f:
            return f.read().strip() == "postgres"
    except OSError:
        return False


def allocated(text):
    out = {}
    for m in re.finditer(r'^orders_thread_allocated_bytes_total\{thread="([^"]*)"\} (\S+)$', text, re.M):
        name = re.sub(r"\d+$", "N", m.group(1)[:15])
        out[name] = out.get(name, 0) + float(m.group(2))
    return out


def wrk(url, seconds, workdir):
    env = KEYS.load(dict(os.environ, ORDERS_LOADTEST_DIR=os.path.join(ROOT, "loadtest"),
                         ORDERS_RUN_ID=str(int(time.time() * 1000))))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    res = subprocess.run(["wrk", f"-t{WRK_THREADS}", f"-c{WRK_CONNECTIONS}", f"-d{seconds}s", "--latency", "-s",
                          os.path.join(ROOT, "loadtest", "order-submission.lua"), url], env=env, cwd=workdir,
                         capture_output=True, text=True, check=True)
    requests = int(re.search(r"(\d+) requests in", res.stdout).group(1))
    non2xx = re.search(r"non2xx=(\d+)", res.stdout)
    rps = float(re.search(r"Requests/sec:\s+(\S+)", res.stdout).group(1))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    wrk_cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return requests, rps, int(non2xx.group(1)) if non2xx else -1, res.stdout, wrk_cpu


def gc_pauses(log, skip_lines):
    with open(log) as f:
        lines = f.read().splitlines()[skip_lines:]
    return [float(m.group(1)) for l in lines for m in [re.search(r"Pause.* ([0-9.]+)ms$", l)] if m]


def gc_allocated(log, skip_lines):
    """Bytes allocated on the heap between the collections in the window: for each collection, its heap before
    minus the heap after the collection before it (-Xlog:gc's "1242M->1224M"). Works for any JVM, so it gives the
    JSON-only server's allocation too; MB resolution, so about 1% over a few dozen collections."""
    with open(log) as f:
        lines = f.read().splitlines()
    unit = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    sizes = []
    for number, line in enumerate(lines):
        m = re.search(r"Pause.* (\d+)([KMG])->(\d+)([KMG])\(", line)
        if m:
            sizes.append((number, int(m.group(1)) * unit[m.group(2)], int(m.group(3)) * unit[m.group(4)]))
    total = 0
    for k in range(1, len(sizes)):
        if sizes[k][0] >= skip_lines:
            total += sizes[k][1] - sizes[k - 1][2]
    return total


def gc_phases(log, skip_lines):
    """Per young collection in the window, the G1 workers' average time in two phases (-Xlog:gc+phases=debug): Scan
    Heap Roots, the cards of old objects written since the previous collection (references from old objects to young
    ones, and writes the concurrent refinement has not cleaned yet), and Object Copy, the survivors."""
    with open(log) as f:
        lines = f.read().splitlines()[skip_lines:]
    phases = {"Scan Heap Roots": [], "Object Copy": []}
    for line in lines:
        m = re.search(r"(Scan Heap Roots|Object Copy) \(ms\):.*Avg:\s*([0-9.]+)", line)
        if m:
            phases[m.group(1)].append(float(m.group(2)))
    return phases


def count_lines(path):
    with open(path) as f:
        return sum(1 for _ in f)


def pct(values, p):
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def measure(name, url, proc, work, service):
    print(f"== {name}: warm-up {WARMUP} s", file=sys.stderr)
    wrk(url, WARMUP, work)
    if service:
        drain(url)
    gc_log = os.path.join(work, "gc.log")
    gc_skip = count_lines(gc_log)
    t0, pg0, wall0 = threads(proc.pid), postgres_ticks(), time.time()
    alloc0 = allocated(metrics(url)) if service else {}
    print(f"== {name}: measuring {SECONDS} s", file=sys.stderr)
    requests, rps, non2xx, out, wrk_cpu = wrk(url, SECONDS, work)
    if service:
        drain(url)
    t1, pg1, wall1 = threads(proc.pid), postgres_ticks(), time.time()
    alloc1 = allocated(metrics(url)) if service else {}
    pauses = gc_pauses(gc_log, gc_skip)
    heap_bytes = gc_allocated(gc_log, gc_skip)
    phases = gc_phases(gc_log, gc_skip)
    rows = []
    for tname in sorted(set(t1) | set(t0)):
        a, b = t0.get(tname, [0, 0, 0]), t1.get(tname, [0, 0, 0])
        cpu_us = (b[0] - a[0]) / HZ * 1e6 / requests
        kernel_us = (b[2] - a[2]) / HZ * 1e6 / requests
        wakes = (b[1] - a[1]) / requests
        abytes = (alloc1.get(tname, 0) - alloc0.get(tname, 0)) / requests
        if cpu_us >= 0.05 or wakes >= 0.005 or abytes >= 1:
            rows.append((tname, cpu_us, wakes, abytes, kernel_us))
    total_cpu = sum(r[1] for r in rows)
    total_alloc = sum(alloc1.values()) - sum(alloc0.values())
    return dict(name=name, requests=requests, rps=rps, non2xx=non2xx, rows=rows, cpu=total_cpu,
                kernel=sum(r[4] for r in rows), wrk_cpu=wrk_cpu * 1e6 / requests,
                wakes=sum(r[2] for r in rows), alloc=total_alloc / requests if service else None,
                pg=(pg1 - pg0) / HZ * 1e6 / requests, pauses=pauses, phases=phases, wall=wall1 - wall0, wrk=out,
                heap=heap_bytes / requests)


def drain(url, timeout=180):
    deadline = time.time() + timeout
    while time.time() < deadline:
        text = metrics(url)
        if metric(text, "orders_http_waiting_requests") == 0 and metric(text, "orders_persistence_lag_events") == 0:
            return
        time.sleep(0.5)
    print("warning: the service did not drain within the timeout", file=sys.stderr)


def report(r, baseline):
    print(f"\n### {r['name']}\n")
    print(f"{r['requests']} requests in {SECONDS} s, **{r['rps']:,.0f} req/s**, non-2xx {r['non2xx']}"
          + (f", **{r['rps'] / baseline['rps']:.2f} x** the JSON-only server" if baseline else ""))
    print()
    print("| thread | CPU µs/order | of which kernel | wake-ups/order | allocated B/order |")
    print("|---|---|---|---|---|")
    for name, cpu, wakes, abytes, kernel in sorted(r["rows"], key=lambda x: -x[1]):
        shown = "" if r["alloc"] is None else f"{abytes:,.0f}"
        print(f"| {name} | {cpu:.1f} | {kernel:.1f} | {wakes:.2f} | {shown} |")
    total = "" if r["alloc"] is None else f"**{r['alloc']:,.0f}**"
    ratio = f" ({r['cpu'] / baseline['cpu']:.2f} x JSON-only)" if baseline else ""
    print(f"| **process** | **{r['cpu']:.1f}**{ratio} | {r['kernel']:.1f} | {r['wakes']:.2f} | {total} |")
    if r["pg"] > 0.05:
        print(f"| PostgreSQL (all its processes) | {r['pg']:.1f} | | | |")
    print(f"| wrk (the load generator) | {r['wrk_cpu']:.1f} | | | |")
    print(f"\nHeap allocated per request, from the GC log (whole process): {r['heap']:,.0f} B")
    p = r["pauses"]
    if p:
        print(f"\nGC: {len(p)} pauses in {r['wall']:.0f} s, p50 {pct(p, 50):.1f} ms, p99 {pct(p, 99):.1f} ms,"
              f" max {max(p):.1f} ms, {sum(p) / 10 / r['wall']:.2f}% of wall time")
        scan, copy = r["phases"]["Scan Heap Roots"], r["phases"]["Object Copy"]
        if scan and copy:
            print(f"of which (G1 workers' average) scanning cards p50 {pct(scan, 50):.1f} ms, p99 {pct(scan, 99):.1f} ms;"
                  f" copying survivors p50 {pct(copy, 50):.1f} ms, p99 {pct(copy, 99):.1f} ms")
    else:
        print(f"\nGC: no pause in {r['wall']:.0f} s")


def main():
    global KEYS
    jar = os.environ.get("ORDERS_JAR", os.path.join(ROOT, "target", "order-entry.jar"))   # another build, for A/B runs
    KEYS = Keys(AUTH, jar=jar)
    cp = os.path.join(ROOT, "target", "test-cp.txt")
    results = []
    baseline = None
    if BASELINE:
        work = tempfile.mkdtemp(prefix="stages-baseline-")
        port = free_port()
        classpath = ":".join([os.path.join(ROOT, "target", "test-classes"), os.path.join(ROOT, "target", "classes"),
                              open(cp).read().strip()])
        proc = subprocess.Popen([JAVA] + JAVA_OPTS + [f"-Xlog:gc,gc+phases=debug:file={work}/gc.log::filecount=0", "-cp", classpath,
                                 "io.orderentry.bench.http.JsonBaselineServer", str(port)],
                                stdout=open(f"{work}/out.log", "w"), stderr=subprocess.STDOUT)
        try:
            url = f"http://127.0.0.1:{port}"
            wait_port(port, proc)
            baseline = measure("JSON-only Vert.x server (loadtest/baseline.sh)", url, proc, work, False)
        finally:
            stop(proc)
            shutil.rmtree(work, ignore_errors=True)
    work = tempfile.mkdtemp(prefix="stages-service-")
    port = free_port()
    db = f"oe_stages_{os.getpid()}"
    env = KEYS.service(service_env(work, port, MODE, db))
    proc = subprocess.Popen([JAVA] + JAVA_OPTS + [f"-Xlog:gc,gc+phases=debug:file={work}/gc.log::filecount=0", "-jar", jar], env=env,
                            stdout=open(f"{work}/service.log", "w"), stderr=subprocess.STDOUT)
    try:
        url = f"http://127.0.0.1:{port}"
        wait_http(url, proc)
        results.append(measure(f"order-entry service, {MODE} ({'journal fsync, audit, PostgreSQL' if MODE == 'durable' else 'journal none, audit, no database'})",
                               url, proc, work, True))
    finally:
        stop(proc)
        if MODE != "memory":
            subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", db], check=False)
        shutil.rmtree(work, ignore_errors=True)
    print(f"# Per-stage cost: wrk -t{WRK_THREADS} -c{WRK_CONNECTIONS} -d{SECONDS}s, loadtest/order-submission.lua,"
          f" {WARMUP} s warm-up; {KEYS.describe()}; JVM {' '.join(JAVA_OPTS)}")
    if baseline:
        report(baseline, None)
    for r in results:
        report(r, baseline)


if __name__ == "__main__":
    main()
