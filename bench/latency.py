#!/usr/bin/env python3
"""Latency at fixed rates of the service next to its two floors, in one invocation (issue 33).

Run through loadtest/latency.sh, which builds the jar, the test classes and the C generator (target/fixedrate, from
loadtest/fixedrate.c) first. Three targets, one process at a time, on loopback ports picked free:
  - the JSON-only server (loadtest/baseline.sh): HTTP and JSON, nothing else;
  - the durable floor (loadtest/floor.sh): the same server, a Disruptor ring and one handler that appends each body to
    a file and fdatasyncs each batch before the answers; its file in a temporary directory beside the service's
    journal (dir=, default the system's temporary directory), so on the same disk;
  - the service: mode=durable: journal fsync, audit, PostgreSQL on 127.0.0.1:5432 in a fresh database dropped after
    each start (as bench/stages.py); mode=memory: journal none, no database.
Each run starts each target in turn (so drift over the invocation spreads evenly over the three), and runs the
generator against it at every rate: WARMUP seconds at the rate unrecorded, then SECONDS recorded, CONNECTIONS
keep-alive connections, coordinated omission corrected (each request timed from when it was due). After its start
each target first takes STARTWARMUP seconds (default 60) at the first rate, unrecorded, so that the JIT has compiled
before anything is recorded. The JVMs run with
bin/order-entry's JVM flags (JAVA_OPTS overrides them, JAVA the runtime). auth=keys (default): the service asks for API
keys, the orders spread over 64 keys made with the jar's `keys create` (benchlib.Keys), and the floors get the same
requests; auth=none: ORDERS_AUTH=none and orders naming accounts lat-0..49.

wrk=64,256 (default off) adds, after the rates, a closed-loop throughput window per connection count for every target:
`wrk -t2 -cN` of loadtest/order-submission.lua, WARMUP seconds unrecorded then SECONDS recorded, and prints the median
req/s of each target and the service's as a ratio to the durable floor's (issue 33, item 4: at least 0.9 x).

Stage by stage (item 4's evidence), for every rate window (its WARMUP seconds included): the service's
orders_stage_latency_seconds histograms from /metrics, read before and after, as p50/p99/p99.9 bucket bounds of each
hand-over of the order path (edge -> journal thread -> matcher -> reply stage -> event loop); and, for the service, the
durable floor and PostgreSQL, each thread group's CPU and run-queue wait (/proc/PID/task/TID/schedstat: time runnable
but not running, which is what two shared cores cost a hand-over) per request answered.

Prints, per rate, the median over the runs of p50/p99/p99.9/max and of the generator's own CPU per request for each
target, and the service's p99 and p99.9 as ratios to the durable floor's (mode=durable) or the JSON-only server's
(mode=memory): the issue's targets are those ratios.
"""
import os, re, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from benchlib import SERVICE_OPTS, Keys, arg, free_port, metrics, service_env, stop, wait_http, wait_port  # noqa: E402

MODE = arg("mode", "durable")          # durable: fsync + audit + PostgreSQL; memory: journal none, no database
AUTH = arg("auth", "keys")
RATES = [int(r) for r in arg("rates", "2500,5000").split(",")]
CONNECTIONS = int(arg("connections", "64"))
SECONDS = int(arg("seconds", "30"))
WARMUP = int(arg("warmup", "10"))
# After each start, before the first rate: the JIT's warm-up, as bench/stages.sh gives it (C2 still at 10-25% of the
# process's CPU after 20-30 s, a few percent after 60 s). It did not remove the service's long tail at 2,500/s
# (p99 150-200 ms with 10 s, 465 ms with 60 s on 2026-11-27): that one is not the JIT's; see loadtest/RESULTS.md.
START_WARMUP = int(arg("startwarmup", "60"))
RUNS = int(arg("runs", "3"))
DIR = arg("dir", tempfile.gettempdir())
JAVA = os.environ.get("JAVA", "java")
JAVA_OPTS = os.environ.get("JAVA_OPTS", SERVICE_OPTS).split()
GENERATOR = os.path.join(ROOT, "target", "fixedrate")
WRK = [int(c) for c in arg("wrk", "").split(",") if c]
FIELDS = ("p50_us", "p99_us", "p999_us", "max_us", "cpu_us_per_request")

JSON_ONLY = "JSON-only server"
FLOOR = "durable floor"
SERVICE = f"service, {MODE}"


def classpath():
    with open(os.path.join(ROOT, "target", "test-cp.txt")) as f:
        deps = f.read().strip()
    return ":".join([os.path.join(ROOT, "target", "test-classes"), os.path.join(ROOT, "target", "classes"), deps])


def generate(port, rate, secrets, seconds=None):
    """Runs the C generator once (seconds recorded after WARMUP; default SECONDS); returns its result line's fields
    (numbers), or stops the bench if it failed."""
    command = [GENERATOR, "127.0.0.1", str(port), str(rate), str(seconds or SECONDS), str(WARMUP), str(CONNECTIONS)]
    if secrets:
        command.append(secrets)
    out = subprocess.run(command, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited with {out.returncode}: {out.stderr.strip()}")
    lines = [l for l in out.stdout.splitlines() if l.startswith("fixedrate ")]
    if len(lines) != 1:
        raise SystemExit(f"{' '.join(command)} printed no result line: {out.stdout!r} {out.stderr.strip()}")
    return {k: float(v) for k, v in (field.split("=", 1) for field in lines[0].split()[1:])}


STAGE_BUCKET = re.compile(r'^orders_stage_latency_seconds_bucket\{stage="(\w+)",le="([^"]+)"\} (\S+)$', re.M)
STAGES = ("ring", "journal", "output", "event_loop")


def stage_buckets(port):
    """stage -> [(upper bound in seconds, cumulative count)] from the service's /metrics."""
    out = {}
    for stage, le, count in STAGE_BUCKET.findall(metrics(f"http://127.0.0.1:{port}")):
        out.setdefault(stage, []).append((float("inf") if le == "+Inf" else float(le), float(count)))
    return out


def stage_quantiles(before, after):
    """stage -> {p50_us, p99_us, p999_us, count}: each quantile as the upper bound of the bucket it falls in, over
    what was recorded between the two readings."""
    out = {}
    for stage in STAGES:
        diffs = [(le, a - b) for (le, a), (_, b) in zip(after.get(stage, []), before.get(stage, []))]
        total = diffs[-1][1] if diffs else 0
        q = {"count": total}
        for key, quantile in (("p50_us", 0.5), ("p99_us", 0.99), ("p999_us", 0.999)):
            q[key] = next((le * 1e6 for le, n in diffs if total > 0 and n >= quantile * total), float("nan"))
        out[stage] = q
    return out


def schedstat(pids):
    """thread group -> [cpu ns, run-queue wait ns] over every thread of pids (digits and #N dropped from names)."""
    out = {}
    for pid in pids:
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                with open(f"/proc/{pid}/task/{tid}/comm") as f:
                    name = f.read().strip()
                with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                    cpu, wait = (int(v) for v in f.read().split()[:2])
            except (OSError, ValueError):
                continue
            name = "postgres" if pid in POSTGRES else re.sub(r"[#-]?\d+$", "", name)
            acc = out.setdefault(name, [0, 0])
            acc[0] += cpu
            acc[1] += wait
    return out


POSTGRES = set()


def postgres_pids():
    """Every postgres process (server, backends, WAL writer, checkpointer) now."""
    pids = set()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/comm") as f:
                if f.read().strip() == "postgres":
                    pids.add(int(pid))
        except OSError:
            continue
    return pids


def sched_delta(pids, before, requests):
    """thread group -> (CPU µs, run-queue wait µs) per request of the window since before."""
    after = schedstat(pids)
    per = max(requests, 1)
    return {name: ((cpu - before.get(name, [0, 0])[0]) / 1000 / per, (wait - before.get(name, [0, 0])[1]) / 1000 / per)
            for name, (cpu, wait) in after.items()}


def start_floor(name, work, port):
    """Starts the JSON-only server or the durable floor (its file in work/floor); returns its process."""
    main = "io.orderentry.bench.http.JsonBaselineServer" if name == JSON_ONLY else \
        "io.orderentry.bench.http.DurableFloorServer"
    args = [str(port)] if name == JSON_ONLY else [str(port), os.path.join(work, "floor")]
    proc = subprocess.Popen([JAVA] + JAVA_OPTS + ["-cp", classpath(), main] + args,
                            stdout=open(os.path.join(work, "out.log"), "w"), stderr=subprocess.STDOUT)
    return proc


def start_service(work, port, db):
    """Starts the service with its directories in work (and database db in mode=durable); returns its process."""
    jar = os.environ.get("ORDERS_JAR", os.path.join(ROOT, "target", "order-entry.jar"))
    env = KEYS.service(service_env(work, port, MODE, db))
    proc = subprocess.Popen([JAVA] + JAVA_OPTS + ["-jar", jar], env=env,
                            stdout=open(os.path.join(work, "service.log"), "w"), stderr=subprocess.STDOUT)
    return proc


def measure(name, run, results):
    """Starts target name, runs every rate against it, stops it; appends each rate's fields to results."""
    work = tempfile.mkdtemp(prefix="latency-", dir=DIR)
    port = free_port()
    db = f"oe_latency_{os.getpid()}_{run}"
    started = time.time()
    proc, completed = None, False
    try:
        if name == SERVICE:
            proc = start_service(work, port, db)
            wait_http(f"http://127.0.0.1:{port}", proc)
        else:
            proc = start_floor(name, work, port)
            wait_port(port, proc)
        print(f"== run {run}, {name}: started in {time.time() - started:.1f} s", file=sys.stderr)
        if START_WARMUP > 0:   # every target alike: unrecorded, at the first rate, so that the JIT has compiled
            generate(port, RATES[0], KEYS.secrets_file if AUTH == "keys" else None, START_WARMUP)
        for rate in RATES:
            POSTGRES.clear()
            if name == SERVICE and MODE == "durable":
                POSTGRES.update(postgres_pids())
            pids = [proc.pid] + sorted(POSTGRES)
            stages0 = stage_buckets(port) if name == SERVICE else None
            sched0 = schedstat(pids)
            r = generate(port, rate, KEYS.secrets_file if AUTH == "keys" else None)
            r["sched"] = sched_delta(pids, sched0, rate * (WARMUP + SECONDS))   # the window, its warm-up included
            if stages0 is not None:
                r["stages"] = stage_quantiles(stages0, stage_buckets(port))
            if proc.poll() is not None:
                raise SystemExit(f"{name} exited with {proc.returncode} during the run")
            print(f"== run {run}, {name}, {rate}/s: p50 {r['p50_us'] / 1000:.2f} p99 {r['p99_us'] / 1000:.2f}"
                  f" p99.9 {r['p999_us'] / 1000:.2f} max {r['max_us'] / 1000:.2f} ms, answered"
                  f" {r['answered']:.0f}/{r['sent']:.0f}, non-2xx {r['non2xx']:.0f}, errors {r['errors']:.0f}",
                  file=sys.stderr)
            results.setdefault((name, rate), []).append(r)
        for connections in WRK:
            wrk(port, connections, WARMUP)
            rps, non2xx = wrk(port, connections, SECONDS)
            if proc.poll() is not None:
                raise SystemExit(f"{name} exited with {proc.returncode} during the run")
            print(f"== run {run}, {name}, wrk -c{connections}: {rps:,.0f} req/s, non-2xx {non2xx}", file=sys.stderr)
            results.setdefault((name, f"wrk{connections}"), []).append({"rps": rps, "non2xx": non2xx})
        stop(proc)
        completed = True
    finally:
        if proc is not None:
            stop(proc)
        if name == SERVICE and MODE != "memory":
            subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", db], check=False)
        if completed:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print(f"== {name}: its output and files are kept in {work}", file=sys.stderr)


def wrk(port, connections, seconds):
    """wrk -t2 -c<connections> of the order-submission script for seconds; returns (req/s, non-2xx answers)."""
    env = KEYS.load(dict(os.environ, ORDERS_LOADTEST_DIR=os.path.join(ROOT, "loadtest"),
                         ORDERS_RUN_ID=str(int(time.time() * 1000))))
    res = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "-s",
                          os.path.join(ROOT, "loadtest", "order-submission.lua"), f"http://127.0.0.1:{port}"],
                         env=env, cwd=ROOT, capture_output=True, text=True, check=True)
    rps = float(re.search(r"Requests/sec:\s+(\S+)", res.stdout).group(1))
    non2xx = re.search(r"non2xx=(\d+)", res.stdout)
    return rps, int(non2xx.group(1)) if non2xx else -1


def report_wrk(results):
    if not WRK:
        return
    print(f"\n## Throughput, wrk -t2 of loadtest/order-submission.lua, {SECONDS} s recorded after {WARMUP} s,"
          f" median of {RUNS} run{'s' if RUNS > 1 else ''}\n")
    print("| connections | " + " | ".join(f"{n} req/s" for n in (JSON_ONLY, FLOOR, SERVICE))
          + " | service / durable floor | non-2xx |")
    print("|---|---|---|---|---|---|")
    for connections in WRK:
        medians = {n: statistics.median(r["rps"] for r in results[(n, f"wrk{connections}")])
                   for n in (JSON_ONLY, FLOOR, SERVICE)}
        non2xx = sum(r["non2xx"] for n in (JSON_ONLY, FLOOR, SERVICE) for r in results[(n, f"wrk{connections}")])
        print(f"| {connections} | " + " | ".join(f"{medians[n]:,.0f}" for n in (JSON_ONLY, FLOOR, SERVICE))
              + f" | **{ratio(medians[SERVICE], medians[FLOOR])}** | {non2xx} |")


def report(results):
    reference = FLOOR if MODE == "durable" else JSON_ONLY
    for rate in RATES:
        print(f"\n## {rate:,} requests/s, {CONNECTIONS} connections, {SECONDS} s recorded after {WARMUP} s,"
              f" median of {RUNS} run{'s' if RUNS > 1 else ''}\n")
        print("| target | p50 ms | p99 ms | p99.9 ms | max ms | generator CPU µs/request | non-2xx | errors |")
        print("|---|---|---|---|---|---|---|---|")
        medians = {}
        for name in (JSON_ONLY, FLOOR, SERVICE):
            runs = results[(name, rate)]
            m = {f: statistics.median(r[f] for r in runs) for f in FIELDS}
            medians[name] = m
            print(f"| {name} | {m['p50_us'] / 1000:.2f} | {m['p99_us'] / 1000:.2f} | {m['p999_us'] / 1000:.2f}"
                  f" | {m['max_us'] / 1000:.2f} | {m['cpu_us_per_request']:.1f}"
                  f" | {sum(r['non2xx'] for r in runs):.0f} | {sum(r['errors'] for r in runs):.0f} |")
        s, f = medians[SERVICE], medians[reference]
        print(f"\nservice / {reference}: p99 **{ratio(s['p99_us'], f['p99_us'])}**,"
              f" p99.9 **{ratio(s['p999_us'], f['p999_us'])}**")
        report_stages(results[(SERVICE, rate)])
        report_sched(results, rate)


def report_stages(runs):
    """The service's hand-overs: median over the runs of each quantile's bucket bound."""
    print("\nThe service's order path, hand-over by hand-over (orders_stage_latency_seconds; a quantile is the upper"
          " bound of its bucket, so read 3 ms as 'between 2 and 3 ms'; the window's warm-up included):\n")
    print("| hand-over | p50 ms | p99 ms | p99.9 ms | orders timed |")
    print("|---|---|---|---|---|")
    for stage in STAGES:
        q = {k: statistics.median(r["stages"][stage][k] for r in runs) for k in ("p50_us", "p99_us", "p999_us", "count")}
        print(f"| {stage} | {q['p50_us'] / 1000:.3g} | {q['p99_us'] / 1000:.3g} | {q['p999_us'] / 1000:.3g}"
              f" | {q['count']:,.0f} |")


def report_sched(results, rate):
    """Per thread group: CPU and run-queue wait per request of the window, median over the runs."""
    print("\nCPU and run-queue wait per request sent in the window (its warm-up included), µs (schedstat; median over the runs; the service's groups"
          " with PostgreSQL's, and the floor's, largest wait first):\n")
    print("| target | thread group | CPU µs/request | run-queue wait µs/request |")
    print("|---|---|---|---|")
    for name, top in ((SERVICE, 10), (FLOOR, 4)):
        runs = results[(name, rate)]
        groups = set().union(*(r["sched"].keys() for r in runs))
        rows = []
        for g in groups:
            cpu = statistics.median(r["sched"].get(g, (0, 0))[0] for r in runs)
            wait = statistics.median(r["sched"].get(g, (0, 0))[1] for r in runs)
            rows.append((wait, cpu, g))
        total_cpu = sum(c for _, c, _ in rows)
        total_wait = sum(w for w, _, _ in rows)
        for wait, cpu, g in sorted(rows, reverse=True)[:top]:
            print(f"| {name} | {g} | {cpu:.1f} | {wait:.1f} |")
        print(f"| {name} | **all** | **{total_cpu:.1f}** | **{total_wait:.1f}** |")


def ratio(a, b):
    return f"{a / b:.2f} x" if b > 0 else "n/a (floor 0)"


def main():
    global KEYS
    if MODE not in ("durable", "memory"):
        raise SystemExit(f"mode must be durable or memory, was {MODE}")
    jar = os.environ.get("ORDERS_JAR", os.path.join(ROOT, "target", "order-entry.jar"))
    KEYS = Keys(AUTH, jar=jar)
    results = {}
    for run in range(1, RUNS + 1):
        for name in (JSON_ONLY, FLOOR, SERVICE):
            measure(name, run, results)
    print("# " + " ".join(["loadtest/latency.sh"] + sys.argv[1:]))
    print(f"\nFixed-rate latency, coordinated omission corrected (target/fixedrate); mode={MODE}"
          f" ({'journal fsync, audit, PostgreSQL' if MODE == 'durable' else 'journal none, audit, no database'});"
          f" {KEYS.describe()}; rates {','.join(map(str, RATES))}; {RUNS} run{'s' if RUNS > 1 else ''}, the three"
          f" targets in turns, each started fresh and warmed {START_WARMUP} s; JVM {' '.join(JAVA_OPTS)}")
    report(results)
    report_wrk(results)


if __name__ == "__main__":
    main()
