"""loadtest/soak.sh [minutes=10] [rate=1000] [subscribers=50] [heap=1g]: a long run of mixed load against the real jar,
durable (journal fsync, audit trail, PostgreSQL, snapshots with journal retention), with limits small enough that the
run reaches them, sampling each minute what must stay bounded: heap after the last young collection and the old
generation's occupancy (GC log), the process's RSS, the bytes on disk of the journal, audit trail, spool and
snapshots, the order latency of that minute, and the answers by class. Prints one table row a minute.

The load: FixedRateLoad places varied LIMIT orders at RATE a second, in one-minute runs (coordinated omission
corrected, one line each); wrk -t1 -c2 with loadtest/mixed.lua places and cancels at the same time as fast as two
connections go; StreamSubscriberHarness keeps SUBSCRIBERS WebSocket clients on book, trades and ticker of both
symbols. Engine and view limits are lowered (100,000 resting orders, 100,000 retained and dedup), so the books fill
within the run and the bounds are what the memory shows. Authentication is on, as the service ships: both loads
spread their orders over 16 API keys made with the jar's `keys create` (benchlib.Keys)."""
import os, re, subprocess, sys, tempfile, time, urllib.request
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "bench"))
from benchlib import Keys, arg, free_port, metrics, metric, service_env, wait_http, stop

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
minutes = int(arg("minutes", "10"))
rate = arg("rate", "1000")
subscribers = arg("subscribers", "50")
heap = arg("heap", "1g")
cp = f"{ROOT}/target/test-classes:{ROOT}/target/classes:" + open(f"{ROOT}/target/test-cp.txt").read().strip()
work = tempfile.mkdtemp(prefix="soak-")
db = "oe_soak_%d" % os.getpid()
subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f"CREATE DATABASE {db}"], check=True)
port = free_port()
url = f"http://127.0.0.1:{port}"
keys = Keys("keys", count=16)
env = keys.service(service_env(work, port, "durable", db))
env.update(ORDERS_JOURNAL_SYNC="fsync", ORDERS_SNAPSHOT_DIR=f"{work}/snapshots",
           ORDERS_ENGINE_MAX_RESTING_ORDERS="100000", ORDERS_QUERY_RETAINED_FINAL_ORDERS="100000",
           ORDERS_ENGINE_DEDUP_WINDOW="100000", ORDERS_SNAPSHOT_EVERY_COMMANDS="200000", ORDERS_SNAPSHOT_KEEP="2",
           ORDERS_JOURNAL_RETENTION="delete", ORDERS_JOURNAL_SEGMENT_BYTES=str(16 << 20),
           ORDERS_PERSISTENCE_SPOOL_SEGMENT_BYTES=str(8 << 20))
gc_log = f"{work}/gc.log"
service = subprocess.Popen(["java", f"-Xms{heap}", f"-Xmx{heap}", "-Xmn24m", "-XX:+UseG1GC", "-XX:+AlwaysPreTouch",
                            f"-Xlog:gc:file={gc_log}", "-jar", f"{ROOT}/target/order-entry.jar"],
                           env=env, stdout=open(f"{work}/service.log", "w"), stderr=subprocess.STDOUT)
try:
    wait_http(url, service)
    subs = subprocess.Popen(["java", "-Xmx256m", "-cp", cp, "io.orderentry.bench.marketdata.StreamSubscriberHarness",
                             url.replace("http", "ws") + "/api/v1/stream", subscribers, str(minutes * 60 + 120), "0"],
                            stdout=open(f"{work}/subscribers.log", "w"), stderr=subprocess.STDOUT)
    wrk = subprocess.Popen(["wrk", "-t1", "-c2", f"-d{minutes * 60}s", "-s", f"{ROOT}/loadtest/mixed.lua", url],
                           env=keys.load(dict(os.environ, ORDERS_LOADTEST_DIR=f"{ROOT}/loadtest")),
                           stdout=open(f"{work}/wrk.log", "w"), stderr=subprocess.STDOUT)

    def du(path):
        total = 0
        for base, _, files in os.walk(path):
            for f in files:
                try:
                    total += os.path.getsize(os.path.join(base, f))
                except OSError:
                    pass
        return total >> 20

    def rss():
        for line in open(f"/proc/{service.pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) >> 10
        return 0

    def heap_after_gc():
        lines = [l for l in open(gc_log) if "Pause Young" in l]
        if not lines:
            return "-"
        m = re.search(r"(\d+)M->(\d+)M\((\d+)M\)", lines[-1])
        return f"{m.group(2)} MiB" if m else "-"

    print(f"soak: {minutes} min, orders at {rate}/s plus wrk -c2 place+cancel, {subscribers} stream subscribers;"
          f" work dir {work}")
    print("| minute | orders/s (all answers) | latency p50 / p99 / p99.9 / max ms | heap after GC | RSS MiB |"
          " journal / audit / spool / snapshots MiB | orders held by the view | persistence lag events | non-2xx |")
    print("|---|---|---|---|---|---|---|---|---|")
    before = metric(metrics(url), "orders_matcher_commands_total")
    for minute in range(1, minutes + 1):
        t0 = time.time()
        out = subprocess.run(["java", "-Xmx256m", "-cp", cp, "io.orderentry.bench.http.FixedRateLoad", url, rate,
                              "55", "8", "5"], env=keys.load(dict(os.environ)), capture_output=True,
                             text=True).stdout.strip().splitlines()
        line = out[-1] if out else ""
        lat = re.search(r"p50 (\d+) p99 (\d+) p99\.9 (\d+) max (\d+)", line)
        other = re.search(r"(\d+) other", line)
        text = metrics(url)
        now = metric(text, "orders_matcher_commands_total")
        elapsed = time.time() - t0
        print(f"| {minute} | {(now - before) / elapsed:,.0f} | "
              + (" / ".join(f"{int(v) / 1000:.1f}" for v in lat.groups()) if lat else line) + " | "
              + f"{heap_after_gc()} | {rss()} | {du(work + '/journal')} / {du(work + '/audit')} / {du(work + '/spool')}"
              + f" / {du(work + '/snapshots')} | {metric(text, 'orders_view_orders'):,.0f} | "
              + f"{metric(text, 'orders_persistence_lag_events'):,.0f} | {other.group(1) if other else '?'} |",
              flush=True)
        before = now
    wrk.wait(timeout=180)   # it ends with the last minute and prints its summary
    subs.wait(timeout=300)
    print("wrk:", " ".join(l.strip() for l in open(f"{work}/wrk.log") if "Requests/sec" in l or "Non-2xx" in l))
    print("subscribers:", " ".join(l.strip() for l in open(f"{work}/subscribers.log") if l.startswith("RESULT")))
finally:
    stop(service)
    subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f"DROP DATABASE IF EXISTS {db}"])
    print("service log, GC log and load logs in", work)
