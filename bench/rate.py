#!/usr/bin/env python3
"""CPU per request at one fixed request rate, for the JSON-only server or the service: bench/rate.sh.

Under the same wrk line the JSON-only server runs four to five times faster than the service, and at that rate each
epoll_wait, read and write serves many connections at once, so its CPU per request is about half what it is at the
service's rate. This compares the two at the same rate instead: a fresh process, a wrk warm-up (so that C2 has
compiled the hot paths), then FixedRateLoad at RATE for SECONDS after WARM seconds at that rate, and the CPU of the
event loops, of every thread by name and of the whole process from /proc over the fixed-rate run, divided by the
requests it sent. Prints FixedRateLoad's line (latency corrected for coordinated omission, its own CPU) after it.

  bench/rate.sh target=json|service [rate=10000] [seconds=20] [warm=10] [wrkwarmup=40] [mode=durable|memory]
               [auth=keys|none]

auth=keys (default): the service asks for API keys, as it ships, and wrk and FixedRateLoad spread the orders over 64
keys made with the jar's `keys create` (benchlib.Keys); the JSON-only server gets the same requests with secrets of the
same shape. auth=none: ORDERS_AUTH=none and orders that name their accounts. The service runs with bin/order-entry's JVM flags (JAVA_OPTS to change them; ORDERS_JAR for another build) against a
fresh PostgreSQL database in durable mode, dropped afterwards. Only loopback addresses are used.
"""
import os, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import SERVICE_OPTS, Keys, arg, free_port, service_env, stop, threads, wait_http, wait_port  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HZ = os.sysconf("SC_CLK_TCK")
TARGET = arg("target", "json")
RATE = int(arg("rate", "10000"))
SECONDS = int(arg("seconds", "20"))
WARM = int(arg("warm", "10"))
WRK_WARMUP = int(arg("wrkwarmup", "40"))
MODE = arg("mode", "durable")
AUTH = arg("auth", "keys")
JAVA_OPTS = os.environ.get("JAVA_OPTS", SERVICE_OPTS).split()


def main():
    classpath = f"{ROOT}/target/test-classes:{ROOT}/target/classes:" + open(f"{ROOT}/target/test-cp.txt").read().strip()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    work = tempfile.mkdtemp(prefix="oe-rate-")
    db = f"oe_rate_{os.getpid()}"
    log = open(os.path.join(work, "process.log"), "w")
    jar = os.environ.get("ORDERS_JAR", os.path.join(ROOT, "target", "order-entry.jar"))
    keys = Keys(AUTH, jar=jar, fake=TARGET == "json")
    if TARGET == "json":
        proc = subprocess.Popen(["java"] + JAVA_OPTS + ["-cp", classpath, "io.orderentry.bench.http.JsonBaselineServer",
                                                         str(port)], stdout=log, stderr=subprocess.STDOUT)
        wait_port(port, proc)   # it has no readiness route (it listens once its heap is pre-touched, 3-8 s here)
    else:
        env = keys.service(service_env(work, port, MODE, db))
        env["ORDERS_SNAPSHOT_DIR"] = os.path.join(work, "snapshots")
        proc = subprocess.Popen(["java"] + JAVA_OPTS + ["-jar", jar], env=env, stdout=log, stderr=subprocess.STDOUT)
        wait_http(url, proc)
    try:
        subprocess.run(["wrk", "-t2", "-c64", f"-d{WRK_WARMUP}s", "-s", f"{ROOT}/loadtest/order-submission.lua", url],
                       env=keys.load(dict(os.environ, ORDERS_LOADTEST_DIR=f"{ROOT}/loadtest")),
                       stdout=subprocess.DEVNULL, check=True)
        time.sleep(2)
        before = threads(proc.pid)
        out = subprocess.run(["java", "-Xmx512m", "-XX:TieredStopAtLevel=1", "-cp", classpath,
                              "io.orderentry.bench.http.FixedRateLoad", url, str(RATE), str(SECONDS), "64", str(WARM)],
                             env=keys.load(dict(os.environ)), capture_output=True, text=True, check=True).stdout.strip()
        after = threads(proc.pid)
    finally:
        stop(proc)
        if TARGET != "json":
            subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", db],
                           stderr=subprocess.DEVNULL)
    requests = RATE * (SECONDS + WARM)
    per = {k: (after[k][0] - before.get(k, [0])[0]) / HZ * 1e6 / requests for k in after}
    loops = sum(v for k, v in per.items() if k.startswith("vert.x-eventloo"))
    print(f"# {TARGET} at {RATE}/s ({SECONDS} s after {WARM} s at that rate, {WRK_WARMUP} s of wrk before;"
          f" {keys.describe() if TARGET != 'json' else 'the same requests'})")
    print(f"event loops {loops:.1f} µs per request; process {sum(per.values()):.1f} µs per request")
    for name, value in sorted(per.items(), key=lambda kv: -kv[1])[:12]:
        if value >= 0.1:
            print(f"  {name:20s} {value:7.1f} µs")
    print(out)


if __name__ == "__main__":
    main()
