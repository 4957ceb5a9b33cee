#!/usr/bin/env python3
"""Cluster mode against a single node, in one session: throughput and the latency of a committed order.

Run through bench/cluster.sh, which builds the jar and the test classes first. Usage:
    python3 bench/cluster.py [seconds=30] [warmup=30] [rate=2000] [members=3] [target=follower|leader] [db=no|yes]
                             [fsync=no|yes|both]

For each configuration (a 3-member cluster on loopback, then one node with its journal at sync none, then one node
with fsync) it starts the service, warms it up with wrk, measures the maximum with `wrk -t2 -c64` of varied orders
(loadtest/order-submission.lua) against one member (a follower by default: its requests go through the leader),
then the latency at a fixed rate with FixedRateLoad (each answer timed from when its request was due). All members,
wrk and the harness share this machine's cores, so the cluster's figures include running three engines, three
archives and three consensus modules on them. Authentication off (ORDERS_AUTH=none) everywhere: this measures
what replication costs, not keys. Only loopback addresses are used; every process it starts is stopped.
"""
import base64, os, re, shutil, subprocess, sys, tempfile, time

from benchlib import SERVICE_OPTS, arg, free_port, service_env, stop, wait_http

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SECONDS = int(arg("seconds", "30"))
WARMUP = int(arg("warmup", "30"))
RATE = int(arg("rate", "2000"))
MEMBERS = int(arg("members", "3"))
TARGET = arg("target", "follower")
# db=yes: every configuration writes PostgreSQL (127.0.0.1:5432, user postgres), each into a new database of its own
DB = arg("db", "no") == "yes"
# fsync=yes: the members force the recorded log to disk before it counts (ORDERS_CLUSTER_FSYNC); both: each in turn
FSYNC = arg("fsync", "no")
if FSYNC not in ("no", "yes", "both"):
    sys.exit(f"fsync must be no, yes or both, was {FSYNC}")
DATABASES = []


def database(name):
    """@return the JDBC URL of a new database for one configuration (the service creates it), or "" with db=no"""
    if not DB:
        return ""
    full = f"bench_{name}_{os.getpid()}"
    DATABASES.append(full)
    return f"jdbc:postgresql://127.0.0.1:5432/{full}"


def drop_databases():
    for name in DATABASES:
        subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f"DROP DATABASE IF EXISTS {name}"],
                       capture_output=True)
JAVA = os.environ.get("JAVA", "java")
# three JVMs share the machine: a third of the single node's heap each
CLUSTER_OPTS = "-Xms1g -Xmx1g -XX:+UseG1GC -XX:+PerfDisableSharedMem".split()
JAR = os.path.join(ROOT, "target", "order-entry.jar")


def start(work, env, opts, name):
    os.makedirs(work, exist_ok=True)
    env = dict(env, ORDERS_AUTH="none")
    env.setdefault("ORDERS_DB_URL", "")
    return subprocess.Popen([JAVA] + opts + ["-jar", JAR], env=env, cwd=work,
                            stdout=open(os.path.join(work, name + ".log"), "w"), stderr=subprocess.STDOUT)


def wrk(url, seconds):
    env = dict(os.environ, ORDERS_LOADTEST_DIR=os.path.join(ROOT, "loadtest"), ORDERS_RUN_ID=str(int(time.time() * 1000)))
    env.pop("ORDERS_LOAD_KEYS", None)
    res = subprocess.run(["wrk", "-t2", "-c64", f"-d{seconds}s", "-s",
                          os.path.join(ROOT, "loadtest", "order-submission.lua"), url], env=env,
                         capture_output=True, text=True, check=True)
    requests = int(re.search(r"(\d+) requests in", res.stdout).group(1))
    non2xx = re.search(r"non2xx=(\d+)", res.stdout)
    return requests / seconds, int(non2xx.group(1)) if non2xx else -1


def fixed_rate(url):
    cp = ":".join([os.path.join(ROOT, "target", "test-classes"), os.path.join(ROOT, "target", "classes"),
                   open(os.path.join(ROOT, "target", "test-cp.txt")).read().strip()])
    env = dict(os.environ)
    env.pop("ORDERS_LOAD_KEYS", None)
    out = subprocess.run([JAVA, "-Xmx512m", "-XX:TieredStopAtLevel=1", "-cp", cp,
                          "io.orderentry.bench.http.FixedRateLoad", url, str(RATE), str(SECONDS), "64"],
                         env=env, capture_output=True, text=True, check=True).stdout
    m = re.search(r"(\d+) 2xx, (\d+) other.*p50 (\d+) p99 (\d+) p99.9 (\d+) max (\d+)", out)
    if not m:
        raise SystemExit("FixedRateLoad printed no result:\n" + out)
    return dict(ok=int(m.group(1)), other=int(m.group(2)), p50=int(m.group(3)), p99=int(m.group(4)),
                p999=int(m.group(5)), max=int(m.group(6)))


def measure(name, url):
    print(f"== {name}: warm-up {WARMUP} s", file=sys.stderr)
    wrk(url, WARMUP)
    rps, non2xx = wrk(url, SECONDS)
    print(f"== {name}: {rps:,.0f} req/s; fixed rate {RATE}/s", file=sys.stderr)
    return dict(name=name, rps=rps, non2xx=non2xx, **fixed_rate(url))


def metric_of(url, name):
    import urllib.request
    with urllib.request.urlopen(url + "/metrics", timeout=5) as r:
        for line in r.read().decode().splitlines():
            if line.startswith(name + " "):
                return float(line.split()[-1])
    return 0.0


def cluster(root, fsync=False):
    members = "|".join(f"{i}," + ",".join(f"127.0.0.1:{free_port()}" for _ in range(5)) for i in range(MEMBERS))
    procs, urls = [], []
    url_of_db = database("cluster_fsync" if fsync else "cluster")
    # the secret the members share (ORDERS_CLUSTER_SECRET_FILE, required in cluster mode): owner-only, as an operator's
    secret = os.path.join(root, "cluster-secret")
    if not os.path.exists(secret):
        with os.fdopen(os.open(secret, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as out:
            out.write(base64.b64encode(os.urandom(32)).decode() + "\n")
    try:
        for i in range(MEMBERS):
            port = free_port()
            work = os.path.join(root, f"member-{i}")
            env = service_env(work, port, "memory", None)
            env.update(ORDERS_CLUSTER_MEMBERS=members, ORDERS_CLUSTER_MEMBER_ID=str(i),
                       ORDERS_CLUSTER_DIR=os.path.join(work, "cluster"), ORDERS_DB_URL=url_of_db,
                       ORDERS_PERSISTENCE_SPOOL_DIR=os.path.join(work, "spool"),
                       ORDERS_CLUSTER_FSYNC="true" if fsync else "false", ORDERS_CLUSTER_SECRET_FILE=secret)
            procs.append(start(work, env, CLUSTER_OPTS, f"member-{i}"))
            urls.append(f"http://127.0.0.1:{port}")
        for url, proc in zip(urls, procs):
            wait_http(url, proc)
        leader = next(i for i, url in enumerate(urls) if metric_of(url, "orders_cluster_leader") == 1)
        target = leader if TARGET == "leader" else (leader + 1) % MEMBERS
        return measure(f"cluster of {MEMBERS}{', fsync' if fsync else ''}, requests to the {TARGET} (member {target})",
                       urls[target])
    finally:
        for proc in procs:
            stop(proc)


def single(root, sync):
    port = free_port()
    work = os.path.join(root, f"single-{sync}")
    env = service_env(work, port, "memory", None)
    env["ORDERS_JOURNAL_SYNC"] = sync
    env["ORDERS_DB_URL"] = database("single_" + sync)
    proc = start(work, env, SERVICE_OPTS.split(), "single")
    try:
        url = f"http://127.0.0.1:{port}"
        wait_http(url, proc)
        return measure(f"one node, journal sync {sync}", url)
    finally:
        stop(proc)


def main():
    root = tempfile.mkdtemp(prefix="bench-cluster-")
    try:
        clusters = {"no": [False], "yes": [True], "both": [False, True]}[FSYNC]
        results = [cluster(root, fsync) for fsync in clusters] + [single(root, "none"), single(root, "fsync")]
    finally:
        shutil.rmtree(root, ignore_errors=True)
        drop_databases()
    print(f"# Cluster against one node: wrk -t2 -c64 -d{SECONDS}s loadtest/order-submission.lua after {WARMUP} s, then"
          f" FixedRateLoad at {RATE}/s for {SECONDS} s (64 connections); authentication off; "
          f"{'PostgreSQL on (a database per configuration)' if DB else 'no database'}\n")
    print("| configuration | req/s (wrk) | non-2xx | p50 µs | p99 µs | p99.9 µs | max µs | fixed-rate non-2xx |")
    print("|---|---|---|---|---|---|---|---|")
    for r in results:
        print(f"| {r['name']} | {r['rps']:,.0f} | {r['non2xx']} | {r['p50']:,} | {r['p99']:,} | {r['p999']:,} |"
              f" {r['max']:,} | {r['other']} |")
    base = results[len(clusters)]
    for r in results[:len(clusters)]:
        print(f"\n{r['name']} / one node (sync none): throughput {r['rps'] / base['rps']:.2f} x, p50"
              f" {r['p50'] / max(1, base['p50']):.1f} x, p99 {r['p99'] / max(1, base['p99']):.1f} x")


if __name__ == "__main__":
    main()
