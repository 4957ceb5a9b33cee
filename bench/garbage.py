#!/usr/bin/env python3
"""What an order leaves behind on the heap: class histograms of the live heap, taken between load windows.

Run through bench/garbage.sh (issue 33, item 2). Starts the service (mode=durable: journal fsync, audit, PostgreSQL
in a fresh database; mode=memory: journal none, no database) with bin/order-entry's JVM flags, warms it up with
`wrk -t2 -c64` of loadtest/order-submission.lua, then takes `jcmd GC.class_histogram` (a full collection first, so
it counts only live objects) before and after each of `windows` load windows of `seconds` s, and prints every class
whose live instance count or bytes grew in every window, per 1,000 orders the service accepted in that window
(the order outcomes the matcher reported, orders_order_outcomes_total in /metrics: the loads only place orders). A class that grows with the orders placed is one whose
objects outlive the orders' requests: the LMAX discipline wants none once the service is warm.

load=wrk (default) or load=fixed:RATE (loadtest/fixedrate.c at RATE orders a second over 64 connections).
"""
import os, re, subprocess, sys, tempfile, time, shutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from benchlib import SERVICE_OPTS, Keys, arg, free_port, metrics, service_env, stop, wait_http  # noqa: E402

SECONDS = int(arg("seconds", "30"))
WARMUP = int(arg("warmup", "60"))
WINDOWS = int(arg("windows", "2"))
MODE = arg("mode", "durable")
AUTH = arg("auth", "keys")
LOAD = arg("load", "wrk")
TOP = int(arg("top", "25"))
JAVA = os.environ.get("JAVA", "java")
JAVA_OPTS = os.environ.get("JAVA_OPTS", SERVICE_OPTS).split()


def histogram(pid):
    out = subprocess.run(["jcmd", str(pid), "GC.class_histogram"], capture_output=True, text=True, check=True).stdout
    classes = {}
    for m in re.finditer(r"^\s*\d+:\s+(\d+)\s+(\d+)\s+(\S+)", out, re.M):
        classes[m.group(3)] = (int(m.group(1)), int(m.group(2)))
    return classes


def placed(url, headers):
    text = metrics(url, headers)
    total = 0.0
    for m in re.finditer(r'^orders_order_outcomes_total\{[^}]*\} (\S+)$', text, re.M):
        total += float(m.group(1))
    return total


def load(url, seconds, work):
    env = KEYS.load(dict(os.environ, ORDERS_LOADTEST_DIR=os.path.join(ROOT, "loadtest"),
                         ORDERS_RUN_ID=str(int(time.time() * 1000))))
    if LOAD == "wrk":
        subprocess.run(["wrk", "-t2", "-c64", f"-d{seconds}s", "-s", os.path.join(ROOT, "loadtest", "order-submission.lua"),
                        url], env=env, cwd=work, capture_output=True, text=True, check=True)
    elif LOAD.startswith("fixed:"):
        port = url.rsplit(":", 1)[1]
        keys = [KEYS.secrets_file] if KEYS.auth == "keys" else []
        subprocess.run([os.path.join(ROOT, "target", "fixedrate"), "127.0.0.1", port, LOAD.split(":")[1],
                        str(seconds), "0", "64"] + keys, cwd=work, capture_output=True, text=True, check=True)
    else:
        raise SystemExit(f"load must be wrk or fixed:RATE, was {LOAD}")


def main():
    global KEYS
    jar = os.environ.get("ORDERS_JAR", os.path.join(ROOT, "target", "order-entry.jar"))
    KEYS = Keys(AUTH, jar=jar, admin=True)
    work = tempfile.mkdtemp(prefix="garbage-")
    port = free_port()
    db = f"oe_garbage_{os.getpid()}"
    env = KEYS.service(service_env(work, port, MODE, db))
    proc = subprocess.Popen([JAVA] + JAVA_OPTS + ["-jar", jar], env=env, stdout=open(f"{work}/service.log", "w"),
                            stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    headers = KEYS.admin_headers()
    growth = []
    try:
        wait_http(url, proc)
        print(f"== warm-up {WARMUP} s ({LOAD})", file=sys.stderr)
        load(url, WARMUP, work)
        before, orders = histogram(proc.pid), placed(url, headers)
        for w in range(WINDOWS):
            print(f"== window {w + 1}: {SECONDS} s ({LOAD})", file=sys.stderr)
            load(url, SECONDS, work)
            time.sleep(2)      # the output ring and the spool finish the window's orders
            after, now = histogram(proc.pid), placed(url, headers)
            growth.append((now - orders, {c: (after.get(c, (0, 0))[0] - before.get(c, (0, 0))[0],
                                              after.get(c, (0, 0))[1] - before.get(c, (0, 0))[1])
                                          for c in set(before) | set(after)}))
            before, orders = after, now
    finally:
        stop(proc)
        if MODE != "memory":
            subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", db], check=False)
        shutil.rmtree(work, ignore_errors=True)
    print(f"# Live-heap growth per 1,000 orders placed: {MODE}, {LOAD}, {WARMUP} s warm-up, {WINDOWS} windows of"
          f" {SECONDS} s; JVM {' '.join(JAVA_OPTS)}")
    print("orders placed per window: " + ", ".join(f"{int(n):,}" for n, _ in growth))
    # grew in every window by at least one instance per 20,000 orders or 10 bytes per 1,000: what grows with the orders
    grew = [c for c in growth[0][1]
            if all(c in g and (g[c][0] * 20_000 >= n or g[c][1] * 100 >= n) for n, g in growth)]
    grew.sort(key=lambda c: -sum(g[c][1] for _, g in growth))
    print(f"{'class':60} " + " ".join(f"{'w' + str(k + 1) + ' inst/1k':>12} {'B/1k':>10}" for k in range(len(growth))))
    for c in grew[:TOP]:
        print(f"{c[:60]:60} " + " ".join(f"{g[c][0] * 1000 / max(n, 1):12.1f} {g[c][1] * 1000 / max(n, 1):10.0f}"
                                         for n, g in growth))
    if not grew:
        print("no class grew in every window")


if __name__ == "__main__":
    main()
