"""bench/snapshot.sh: restart time after a long history, with and without a snapshot, and what writing snapshots
costs order answers. See bench/snapshot.sh for the arguments. Authentication is on, as the service ships: the orders
spread over 16 API keys and /admin/snapshot is asked with an admin key, all made with the jar's `keys create`."""
import os, re, shutil, subprocess, sys, tempfile, threading, time, urllib.request
sys.path.insert(0, os.path.dirname(__file__))
from benchlib import Keys, arg, free_port, wait_http, stop

records = int(arg("records", "50000000"))
resting = int(arg("resting", "1000000"))
heap = arg("heap", "4g")
rate = arg("rate", "2000")
seconds = arg("seconds", "60")
work = arg("dir", "")
# accounts=N (N > 0): a history for ORDERS_RISK=balances, each of N accounts funded first, the orders spread over them
accounts = int(arg("accounts", "0"))
phases = arg("phases", "123")
# the Dockerfile's former flags, with the heap of this run (not bin/order-entry's: issue 33 changed those after the
# snapshot figures in RESULTS.md were taken)
java_opts = arg("java", f"-Xms{heap} -Xmx{heap} -Xmn24m -XX:+AlwaysPreTouch -XX:+UseG1GC -XX:+PerfDisableSharedMem").split()
root = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
cp = f"{root}/target/test-classes:{root}/target/classes:" + open(f"{root}/target/test-cp.txt").read().strip()
base = work or tempfile.mkdtemp(prefix="snapshot-bench-")
journal = os.path.join(base, "journal")
keys = Keys("keys", count=16, admin=True)


def service(log_name, port, extra=None):
    env = dict(os.environ, ORDERS_HTTP_HOST="127.0.0.1", ORDERS_HTTP_PORT=str(port), ORDERS_JOURNAL_DIR=journal,
               ORDERS_JOURNAL_SYNC="none", ORDERS_AUDIT_DIR=os.path.join(base, "audit"), ORDERS_DB_URL="",
               ORDERS_SNAPSHOT_EVERY_COMMANDS="0", ORDERS_SNAPSHOT_INTERVAL_SECONDS="0")
    if accounts > 0:
        env["ORDERS_RISK"] = "balances"
    env.update(extra or {})
    keys.service(env)
    log = open(os.path.join(base, log_name), "w")
    started = time.time()
    gc = ["-Xlog:gc:file=" + os.path.join(base, log_name.replace(".log", ".gc"))]
    proc = subprocess.Popen(["java", *java_opts, *gc, "-jar", f"{root}/target/order-entry.jar"],
                            env=env, stdout=log, stderr=subprocess.STDOUT)
    return proc, started


def post(url, timeout=900):
    req = urllib.request.Request(url, data=b"", method="POST", headers=keys.admin_headers())
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return r.read().decode()


def grep(log_name, pattern):
    text = open(os.path.join(base, log_name)).read()
    found = re.findall(pattern, text)
    return found[-1] if found else None


if not os.path.isdir(journal):
    subprocess.run(["java", "-Xmx1g", "-cp", cp, "io.orderentry.bench.snapshot.HistoryGenerator", journal,
                    str(resting), str(records), str(accounts)], check=True)
journal_bytes = sum(os.path.getsize(os.path.join(journal, f)) for f in os.listdir(journal))
print(f"journal: {records:,} records, {journal_bytes / 1e9:.2f} GB in {journal}")

def whole_journal():
    """1. The whole journal, no snapshot yet (as before snapshots existed); then a snapshot on request."""
    shutil.rmtree(os.path.join(base, "snapshots"), ignore_errors=True)
    port = free_port()
    proc, t0 = service("first.log", port)
    wait_http(f"http://127.0.0.1:{port}", proc, timeout=3600)
    full = time.time() - t0
    print(f"launch to /ready replaying the whole journal: {full:.1f} s")
    t1 = time.time()
    print("snapshot on request:", post(f"http://127.0.0.1:{port}/admin/snapshot"))
    print(f"  (the writer followed the journal's {records:,} records first: {time.time() - t1:.1f} s)")
    print("  ", grep("first.log", r"snapshot: wrote .*"))
    stop(proc)


def restarts():
    """2. Restart from the snapshot, three times; the last one keeps running."""
    times = []
    for run in range(3):
        port = free_port()
        proc, t0 = service(f"restart{run}.log", port)
        wait_http(f"http://127.0.0.1:{port}", proc, timeout=3600)
        times.append(time.time() - t0)
        print(f"restart {run + 1}: launch to /ready {times[-1]:.2f} s;", grep(f"restart{run}.log", r"loaded snapshot .*"),
              "|", grep(f"restart{run}.log", r"replayed \d+ records.*?ms"))
        if run < 2:
            stop(proc)
    times.sort()
    print(f"launch to /ready from the snapshot, median of 3: {times[1]:.2f} s")
    return proc, port


def latency(port):
    """3. Order latency while snapshots are written (one every 10 s), against the same service without, twice."""
    url = f"http://127.0.0.1:{port}"
    load = ["java", "-Xmx256m", "-cp", cp, "io.orderentry.bench.http.FixedRateLoad", url, rate, seconds, "16", "10"]

    def snapshots_every(period, stop_at, taken):
        while time.time() < stop_at:
            time.sleep(period)
            if time.time() < stop_at:
                t = time.time()
                post(url + "/admin/snapshot")
                taken.append(time.time() - t)

    for label, with_snapshots in (("without snapshots", False), ("snapshot every 10 s", True),
                                  ("without snapshots", False), ("snapshot every 10 s", True)):
        taken = []
        th = None
        if with_snapshots:
            th = threading.Thread(target=snapshots_every, args=(10, time.time() + 10 + int(seconds), taken),
                                  daemon=True)
            th.start()
        out = subprocess.run(load, env=keys.load(dict(os.environ)), capture_output=True,
                             text=True).stdout.strip().splitlines()
        if th:
            th.join()
        print(f"{label}: {out[-1] if out else '(no output)'}"
              + (f"; {len(taken)} snapshots, each {', '.join(f'{t:.2f}' for t in taken)} s" if taken else ""))


if "1" in phases:
    whole_journal()
if "2" in phases or "3" in phases:
    proc, port = restarts()
    if "3" in phases:
        latency(port)
    print("  ", grep("restart2.log", r"snapshot: wrote .*"))
    stop(proc)
print(f"logs and GC logs in {base}")
