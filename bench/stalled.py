"""bench/stalled.py [subscribers=10000] [rate=2000] [seconds=40] [heap=2g] [jvm="OPTIONS"]: what stream subscribers that never read
cost the service (issue 13, item 12). Starts the jar (journal none, no database), connects SUBSCRIBERS stalled
WebSocket clients (StalledSubscribersHarness: 4 KiB receive buffers, every channel of both symbols), places orders at
RATE a second (FixedRateLoad, 10 s of warm-up then SECONDS recorded), and prints every 5 s the heap in use (jcmd GC.heap_info, no forced GC), the
process's RSS, the stream's connections, queued backlog bytes, conflations and slow-client disconnects. The orders
authenticate with 16 API keys made with the jar's `keys create` (benchlib.Keys), as the service ships.
Run after `mvn -q -DskipTests package dependency:build-classpath -Dmdep.outputFile=target/test-cp.txt test-compile`."""
import os, re, subprocess, sys, tempfile, time
sys.path.insert(0, os.path.dirname(__file__))
from benchlib import Keys, arg, free_port, metrics, metric, service_env, wait_http, stop

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
subscribers = arg("subscribers", "10000")
rate = arg("rate", "2000")
seconds = int(arg("seconds", "40"))
heap = arg("heap", "2g")
jvm = arg("jvm", "").split()   # extra options for the service's JVM, e.g. jvm=-XX:StartFlightRecording=filename=x.jfr
cp = f"{ROOT}/target/test-classes:{ROOT}/target/classes:" + open(f"{ROOT}/target/test-cp.txt").read().strip()
work = tempfile.mkdtemp(prefix="stalled-")
port = free_port()
url = f"http://127.0.0.1:{port}"
keys = Keys("keys", count=16)
env = keys.service(service_env(work, port, "memory", None))
env["ORDERS_SNAPSHOT_ENABLED"] = "false"
service = subprocess.Popen(["java", f"-Xms{heap}", f"-Xmx{heap}", "-XX:+UseG1GC", *jvm, "-jar",
                            f"{ROOT}/target/order-entry.jar"], env=env,
                           stdout=open(f"{work}/service.log", "w"), stderr=subprocess.STDOUT)


def sample(label):
    text = metrics(url)
    info = subprocess.run(["jcmd", str(service.pid), "GC.heap_info"], capture_output=True, text=True).stdout
    used = re.search(r"used (\d+)K", info)
    rss = next((int(l.split()[1]) >> 10 for l in open(f"/proc/{service.pid}/status") if l.startswith("VmRSS:")), 0)
    print(f"| {label} | {int(used.group(1)) >> 10 if used else '?'} MiB | {rss} MiB | {metric(text, 'orders_ws_clients'):,.0f} |"
          f" {metric(text, 'orders_ws_queued_bytes') / 2**20:,.1f} MiB | {metric(text, 'orders_ws_conflations_total'):,.0f} |"
          f" {metric(text, 'orders_ws_slow_disconnects_total'):,.0f} |", flush=True)


try:
    wait_http(url, service)
    print(f"{subscribers} stalled subscribers, orders at {rate}/s for {seconds} s; work dir {work}")
    print("| when | heap in use | RSS | stream clients | queued backlog | conflations | slow-client disconnects |")
    print("|---|---|---|---|---|---|---|")
    sample("before")
    harness = subprocess.Popen(["java", "-Xmx1g", "-cp", cp, "io.orderentry.bench.marketdata.StalledSubscribersHarness",
                                str(port), subscribers, str(seconds + 60)], stdout=subprocess.PIPE, text=True)
    print("harness:", harness.stdout.readline().strip())
    sample("subscribed")
    # 10 s of warm-up at the same rate, not recorded: a fresh JVM's first seconds would otherwise set the tail
    load = subprocess.Popen(["java", "-Xmx256m", "-cp", cp, "io.orderentry.bench.http.FixedRateLoad", url, rate,
                             str(seconds), "8", "10"], env=keys.load(dict(os.environ)), stdout=subprocess.PIPE,
                            text=True)
    for t in range(5, seconds + 11, 5):
        time.sleep(5)
        sample(f"{t} s of load")
    print("load:", load.communicate()[0].strip().splitlines()[-1])
    harness.terminate()
finally:
    stop(service)
