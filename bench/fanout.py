#!/usr/bin/env python3
"""Order entry with 0, 10, 100 and 1,000 stream subscribers: what the WebSocket fan-out costs order entry.

Run through bench/fanout.sh, which builds the jar and the test classes first. For each subscriber count it
starts a fresh service (mode=memory: journal none, no database, as a venue's market data test runs it;
mode=durable: journal fsync, audit, PostgreSQL), connects the subscribers first (StreamSubscriberHarness: one
process, one thread, book + trades + ticker of every symbol on each connection, sequences checked on all,
books and checksums on the first five), then runs `wrk -t2 -c64` of varied orders for a warm-up and a
measured window. Reported per run: req/s and wrk's p50/p99, non-2xx, the stream's messages and socket writes
per second, the event loops' fan-out CPU per message per subscriber (orders_ws_fanout_cpu_seconds_total /
orders_ws_messages_total), the latency from the market data consumer taking a batch's first engine event to
its write to a connection (orders_ws_delivery_seconds over the window), where the CPU went (the market data
consumer thread, the event loops and the whole service, from orders_thread_cpu_seconds_total), the harness's
own CPU, and the subscribers' gaps and checksum mismatches. Only loopback addresses are used; every process is stopped.
"""
import os, re, socket, subprocess, sys, tempfile, time, urllib.request, shutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from benchlib import SERVICE_OPTS, Keys, arg, free_port, metric, metrics, service_env, stop, wait_http  # noqa: E402

SUBSCRIBERS = [int(n) for n in arg("subscribers", "0,10,100,1000").split(",")]
SECONDS = int(arg("seconds", "20"))
WARMUP = int(arg("warmup", "20"))
RUNS = int(arg("runs", "1"))
MODE = arg("mode", "memory")
JAVA = os.environ.get("JAVA", "java")
JAR = os.environ.get("ORDERS_JAR", os.path.join(ROOT, "target", "order-entry.jar"))   # another build, for A/B runs
VERIFY = os.environ.get("FANOUT_VERIFY", "5")   # connections that keep books and check checksums
DEFLATE = arg("deflate", "yes") == "yes"   # subscribers offer permessage-deflate, as browsers do
JAVA_OPTS = os.environ.get("JAVA_OPTS", SERVICE_OPTS).split()
AUTH = arg("auth", "keys")   # keys: API keys on, as the service ships (the orders spread over 64); none: ORDERS_AUTH=none
KEYS = None


def thread_cpu(text):
    """(market data consumer, event loops, whole process) CPU seconds from orders_thread_cpu_seconds_total."""
    md = loops = total = 0.0
    for m in re.finditer(r'^orders_thread_cpu_seconds_total\{thread="([^"]*)"\} (\S+)$', text, re.M):
        value = float(m.group(2))
        total += value
        if m.group(1) == "oe-marketdata":
            md += value
        elif m.group(1).startswith("vert.x-eventloop"):
            loops += value
    return md, loops, total


def wrk(url, seconds):
    env = KEYS.load(dict(os.environ, ORDERS_LOADTEST_DIR=os.path.join(ROOT, "loadtest"),
                         ORDERS_RUN_ID=str(int(time.time() * 1000))))
    res = subprocess.run(["wrk", "-t2", "-c64", f"-d{seconds}s", "--latency", "-s",
                          os.path.join(ROOT, "loadtest", "order-submission.lua"), url], env=env,
                         capture_output=True, text=True, check=True)
    rps = float(re.search(r"Requests/sec:\s+(\S+)", res.stdout).group(1))
    non2xx = re.search(r"non2xx=(\d+)", res.stdout)

    def pct(p):
        m = re.search(r"^\s+" + p + r"%\s+(\S+)", res.stdout, re.M)
        v = m.group(1)
        for unit, f in (("us", 1e-3), ("ms", 1.0), ("s", 1e3)):
            if v.endswith(unit):
                return float(v[:-len(unit)]) * f
        return float(v)
    return rps, pct("50"), pct("99"), int(non2xx.group(1)) if non2xx else -1


def run(n):
    work = tempfile.mkdtemp(prefix="fanout-")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    db = f"oe_fanout_{os.getpid()}"
    env = KEYS.service(service_env(work, port, MODE, db))
    service = subprocess.Popen([JAVA] + JAVA_OPTS + ["-jar", JAR],
                               env=env, stdout=open(f"{work}/service.log", "w"), stderr=subprocess.STDOUT)
    harness = None
    try:
        wait_http(url, service)
        if n > 0:
            cp = ":".join([os.path.join(ROOT, "target", "test-classes"), os.path.join(ROOT, "target", "classes"),
                           open(os.path.join(ROOT, "target", "test-cp.txt")).read().strip()])
            harness = subprocess.Popen(["java", "-Xmx1g", "-XX:+UseSerialGC", f"-Ddeflate={str(DEFLATE).lower()}", "-cp", cp,
                                        "io.orderentry.bench.marketdata.StreamSubscriberHarness", url, str(n),
                                        str(WARMUP + SECONDS + 15), VERIFY],
                                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            line = harness.stdout.readline()
            if not line.startswith("SUBSCRIBED"):
                raise SystemExit("subscribers failed: " + line + harness.stdout.read())
        wrk(url, WARMUP)
        before = metrics(url)
        t0 = time.time()
        rps, p50, p99, non2xx = wrk(url, SECONDS)
        elapsed = time.time() - t0
        after = metrics(url)
        d = lambda name: metric(after, name) - metric(before, name)
        messages, writes, cpu = d("orders_ws_messages_total"), d("orders_ws_writes_total"), \
            d("orders_ws_fanout_cpu_seconds_total")
        q = lambda x: metric(after, 'orders_ws_delivery_seconds{quantile="' + x + '"}') * 1000
        md0, loops0, total0 = thread_cpu(before)
        md1, loops1, total1 = thread_cpu(after)
        result = None
        if harness:
            result = harness.stdout.read().strip()
            harness.wait()
        return dict(n=n, rps=rps, p50=p50, p99=p99, non2xx=non2xx, msgs=messages / elapsed, writes=writes / elapsed,
                    ns_per=cpu * 1e9 / messages if messages else 0, fanout_core=cpu / elapsed,
                    d50=q("0.5"), d99=q("0.99"), harness=result, md_core=(md1 - md0) / elapsed,
                    loops_core=(loops1 - loops0) / elapsed, process_core=(total1 - total0) / elapsed)
    finally:
        if harness and harness.poll() is None:
            harness.kill()
        stop(service)
        if MODE != "memory":
            subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", db], check=False)
        shutil.rmtree(work, ignore_errors=True)


def main():
    global KEYS
    KEYS = Keys(AUTH, jar=JAR)   # once: every service of the run reads the same keys file
    rows = []
    for r in range(RUNS):
        for n in SUBSCRIBERS:
            row = run(n)
            rows.append(row)
            print(f"subscribers {row['n']:5d}: {row['rps']:9.0f} req/s, p50 {row['p50']:.2f} ms, p99 {row['p99']:.2f} ms,"
                  f" non-2xx {row['non2xx']}; stream {row['msgs']:.0f} msg/s in {row['writes']:.0f} writes/s,"
                  f" fan-out {row['ns_per']:.0f} ns CPU per message per subscriber ({row['fanout_core'] * 100:.0f}% of a"
                  f" core), event -> write p50 {row['d50']:.2f} ms p99 {row['d99']:.2f} ms; threads: oe-marketdata"
                  f" {row['md_core'] * 100:.0f}%, event loops {row['loops_core'] * 100:.0f}%, whole service"
                  f" {row['process_core'] * 100:.0f}% of a core", flush=True)
            if row["harness"]:
                print("    " + row["harness"].replace("\n", "\n    "), flush=True)
    base = [r for r in rows if r["n"] == 0]
    if base:
        b = sorted(r["rps"] for r in base)[len(base) // 2]
        bp = sorted(r["p99"] for r in base)[len(base) // 2]
        print(f"# {MODE}, wrk -t2 -c64 {SECONDS} s after {WARMUP} s warm-up; subscribers"
              f" {'offering permessage-deflate' if DEFLATE else 'without compression'}; {KEYS.describe()};"
              f" medians over {RUNS} run(s),"
              f" as ratios to 0 subscribers")
        for n in SUBSCRIBERS:
            mine = [r for r in rows if r["n"] == n]
            rps = sorted(r["rps"] for r in mine)[len(mine) // 2]
            p99 = sorted(r["p99"] for r in mine)[len(mine) // 2]
            print(f"| {n} | {rps:.0f} ({rps / b:.2f} x) | p99 {p99:.2f} ms ({p99 / bp:.2f} x) |")


if __name__ == "__main__":
    main()
