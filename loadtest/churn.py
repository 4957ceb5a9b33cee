"""loadtest/churn.sh [minutes=10] [rate=200] [url=URL] [pid=PID] [mode=durable|memory] [heap=512m] [warmup=30]
[every=5] [settle=15] [jar=JAR]: the connection-churn soak (issue 30). For MINUTES it opens RATE new connections a
second, each carrying one request or one stream session and then closed (the mix: loadtest/churn_clients.py), and
checks that everything a connection holds in the service is given back: PASS only if, after the load and SETTLE
seconds for the last connections to go,
  - the open-connection gauge (orders_http_connections_open) and the stream's (orders_ws_clients) are back at their
    idle baseline (the scrape's own connection counts in both readings), and no connection was closed at accept
    (orders_http_connections_refused_total did not grow);
  - every connection got exactly the answer its kind expects, none closed before an answer;
  - the service's open file descriptors (/proc/PID/fd) grew by at most max(16, 5%) and its threads by at most 8,
    from the end of the warm-up (WARMUP seconds into the load) to the end;
  - its heap after a full collection (jcmd PID GC.run, then the heap used by jcmd PID GC.heap_info) grew by at most
    max(16 MiB, 10%) from the end of the warm-up to the end; it is also taken each minute, and its slope printed.
Every EVERY seconds it samples those figures; at the end it prints them as Markdown tables, for loadtest/RESULTS.md,
and exits 1 on FAIL.

Without url it starts the service itself from JAR (default target/order-entry.jar) as .ci/run does: loopback, a
throwaway journal, audit, spool and keys directory, its own PostgreSQL database on 127.0.0.1:5432 (mode=memory: no
database, journal sync none), authentication on with 8 trade keys and an admin key made with the jar's
`keys create` (bench/benchlib.Keys), the engine's dedup window and retained final orders at their minimum (1,000)
so that they are full within the warm-up, and any ORDERS_ variable of the environment (ORDERS_HTTP_MAX_CONNECTIONS=300
to reach the cap sooner). With url it loads that service with the trade keys ORDERS_LOAD_KEYS lists (churn.sh makes
them as run.sh does) and reads /metrics with ORDERS_LOAD_ADMIN_KEY when set; the process figures need pid=PID of the
service on this machine.

About 55% of the mix carries no key (401s, /health, the book, stream upgrades): above about 1,500 connections a
second that meets the service's budget per address without a key (ORDERS_RATE_LIMIT_ADDRESS_PER_SECOND, 429s,
counted as unexpected); and every connection the client closes first waits 60 s in TIME_WAIT on one of the ~28,000
ephemeral ports, so keep RATE under about 400 from one machine."""
import asyncio, collections, http.client, os, random, re, subprocess, sys, tempfile, time, urllib.parse, urllib.request
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import Keys, arg, free_port, service_env, stop, wait_http
import churn_clients
from churn_clients import CLOSED_AT_ACCEPT, KINDS, Target

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
MAX_IN_FLIGHT = 2000
MIB = 1 << 20


def value(text, name, labels=""):
    """The sum of the series of metric name whose labels contain labels, or None when it has none."""
    total, found = 0.0, False
    for line in text.splitlines():
        if line.startswith(name + " ") or (line.startswith(name + "{") and labels in line.split("}")[0]):
            total += float(line.rsplit(" ", 1)[1])
            found = True
    return total if found else None


class Service:
    """The service under load: its URL, how to scrape it, and its process (pid) when on this machine."""

    def __init__(self, url, headers, pid):
        self.url, self.headers, self.pid = url, headers, pid

    def scrape(self):
        """{open, refused, ws, heap, threads} from /metrics, or None when the scrape fails (a deaf service)."""
        try:
            req = urllib.request.Request(self.url + "/metrics", headers=self.headers)
            with urllib.request.urlopen(req, timeout=10) as r:
                text = r.read().decode()
        except (OSError, http.client.HTTPException):
            return None
        return {"open": value(text, "orders_http_connections_open"),
                "refused": value(text, "orders_http_connections_refused_total"),
                "ws": value(text, "orders_ws_clients"),
                "heap": value(text, "jvm_memory_used_bytes", 'area="heap"'),
                "threads": value(text, "jvm_threads_live_threads")}

    def process(self):
        """{fds, threads} of the process, or {} without a pid."""
        if not self.pid:
            return {}
        try:
            threads = next(int(l.split()[1]) for l in open(f"/proc/{self.pid}/status") if l.startswith("Threads:"))
            return {"fds": len(os.listdir(f"/proc/{self.pid}/fd")), "threads": threads}
        except OSError:
            return {}

    def heap_after_gc(self):
        """The heap used right after a full collection asked for with jcmd, in bytes, or None."""
        if not self.pid:
            return None
        done = subprocess.run(["jcmd", "-J-Dsun.tools.attach.attachTimeout=60000", str(self.pid), "GC.run"],
                              capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            print(f"  jcmd {self.pid} GC.run failed: {(done.stdout + done.stderr).strip()[-300:]}", flush=True)
            return None
        # from the JVM itself: /metrics may serve a rendering up to ORDERS_HTTP_METRICS_CACHE_MILLIS old, from before
        # the collection
        info = subprocess.run(["jcmd", "-J-Dsun.tools.attach.attachTimeout=60000", str(self.pid), "GC.heap_info"],
                              capture_output=True, text=True, timeout=120)
        used = re.search(r"heap\s+total \d+K, used (\d+)K", info.stdout)
        if info.returncode != 0 or not used:
            print(f"  jcmd {self.pid} GC.heap_info failed: {(info.stdout + info.stderr).strip()[-300:]}", flush=True)
            return None
        return int(used.group(1)) * 1024


class Soak:
    """The load (a steady rate of new connections), its counts, and the samples taken while it runs."""

    def __init__(self, service, target, seconds, rate, warmup, every):
        self.service, self.target = service, target
        self.seconds, self.rate, self.warmup, self.every = seconds, rate, warmup, every
        self.outcomes = collections.Counter()   # (kind name, outcome) -> connections
        self.skipped = 0
        self.samples = []
        self.heap_points = []                    # (seconds into the load, heap after a full GC)
        self.process_baseline = {}

    async def one(self, kind):
        self.outcomes[(kind[0], await churn_clients.run(kind, self.target))] += 1

    async def load(self):
        loop = asyncio.get_running_loop()
        weights = [k[1] for k in KINDS]
        tasks = set()
        start, n = loop.time(), 0
        while loop.time() - start < self.seconds:
            due = int((loop.time() - start) * self.rate) + 1
            while n < due:
                n += 1
                if len(tasks) >= MAX_IN_FLIGHT:
                    self.skipped += 1
                    continue
                task = asyncio.create_task(self.one(random.choices(KINDS, weights)[0]))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
            await asyncio.sleep(max(0.0, start + n / self.rate - loop.time()))
        if tasks:
            await asyncio.wait(tasks, timeout=churn_clients.TIMEOUT * 2 + 5)

    def counts(self):
        done = sum(self.outcomes.values())
        bad = sum(c for (_, o), c in self.outcomes.items() if o != "ok")
        closed = sum(c for (_, o), c in self.outcomes.items() if o == CLOSED_AT_ACCEPT)
        return done, bad, closed

    async def sample(self, t):
        loop = asyncio.get_running_loop()
        figures = await loop.run_in_executor(None, self.service.scrape)
        done, bad, closed = self.counts()
        row = {"t": t, "done": done, "bad": bad, "closed": closed, "metrics": figures}
        row.update(self.service.process())
        self.samples.append(row)
        m = figures or {}
        print(f"  {t:5.0f} s: {done} connections, {bad} unexpected ({closed} closed at accept); open "
              f"{fmt(m.get('open'))}, refused {fmt(m.get('refused'))}, stream {fmt(m.get('ws'))}, heap "
              f"{fmt(m.get('heap'), MIB)} MiB, fds {fmt(row.get('fds'))}, threads "
              f"{fmt(row.get('threads', m.get('threads')))}", flush=True)

    async def heap_points_each_minute(self):
        """The process baseline and a heap after a full GC at the end of the warm-up, then a heap point a minute;
        apart from the samples, since jcmd can take seconds on a busy machine."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        for t in range(0, int(self.seconds - self.warmup), 60):
            await asyncio.sleep(max(0.0, start + self.warmup + t - loop.time()))
            if not self.process_baseline:
                self.process_baseline = self.service.process()
            heap = await loop.run_in_executor(None, self.service.heap_after_gc)
            if heap is not None:
                self.heap_points.append((self.warmup + t, heap))

    async def sampler(self):
        loop = asyncio.get_running_loop()
        start = loop.time()
        for n in range(1, int(self.seconds / self.every) + 1):
            await asyncio.sleep(max(0.0, start + n * self.every - loop.time()))
            if n * self.every < self.seconds:
                await self.sample(loop.time() - start)

    async def run(self):
        start = asyncio.get_running_loop().time()
        await asyncio.gather(self.load(), self.sampler(), self.heap_points_each_minute())
        await self.sample(asyncio.get_running_loop().time() - start)

    def last_answered(self):
        """The last sample whose /metrics scrape answered, or None."""
        return next((s for s in reversed(self.samples) if s["metrics"]), None)


def fmt(v, unit=1):
    return "-" if v is None else f"{v / unit:,.0f}"


def idle(service, names):
    """Three scrapes of the idle service; the lowest reading of each figure of names."""
    readings = [r for r in (service.scrape() for _ in range(3)) if r]
    if not readings:
        raise SystemExit(f"{service.url}/metrics does not answer")
    return {k: min(r[k] for r in readings if r[k] is not None) if any(r[k] is not None for r in readings) else None
            for k in names}


def settle(service, start, seconds):
    """Waits up to seconds for the connection gauges to come back to start; returns the last scrape (None: deaf) and
    the seconds waited."""
    began = time.time()
    deadline, last = began + seconds, None
    while time.time() < deadline:
        last = service.scrape()
        if last and last["open"] <= start["open"] + 1 and last["ws"] <= start["ws"]:
            break
        time.sleep(0.5)
    time.sleep(1)
    return service.scrape() or last, time.time() - began


def report(soak, start, end, end_process, end_heap, waited, described):
    """Prints the Markdown tables and the verdict; returns True on PASS."""
    failures = []
    print(f"\n#### Connection churn soak: {described}\n")
    row_seconds = 60 if soak.seconds >= 180 else 10
    print(f"| seconds | connections | unexpected (closed at accept) | open connections | refused at accept (total) |"
          f" stream connections | heap used MiB | fds | threads |")
    print("|---|---|---|---|---|---|---|---|---|")
    rows, boundary = [], row_seconds
    for s in soak.samples[:-1]:
        if s["t"] >= boundary - 0.5:
            rows.append(s)
            boundary = (int(s["t"] + 1) // row_seconds + 1) * row_seconds
    rows += soak.samples[-1:]
    done, bad, closed = soak.counts()
    rows.append(dict(end_process, t=None, done=done, bad=bad, closed=closed, metrics=end))
    for s in rows:
        m = s["metrics"] or {}
        when = f"{s['t']:.0f}" if s["t"] is not None else f"idle, {waited:.0f} s after"
        print(f"| {when} | {s['done']:,} | {s['bad']:,} ({s['closed']:,}) | {fmt(m.get('open'))} | "
              f"{fmt(m.get('refused'))} | {fmt(m.get('ws'))} | {fmt(m.get('heap'), MIB)} | {fmt(s.get('fds'))} | "
              f"{fmt(s.get('threads', m.get('threads')))} |")
    print("\n| kind | connections | as expected | otherwise |\n|---|---|---|---|")
    for name, _, _ in KINDS:
        mine = {o: c for (k, o), c in soak.outcomes.items() if k == name}
        other = "; ".join(f"{c:,} {o}" for o, c in sorted(mine.items(), key=lambda x: -x[1]) if o != "ok")
        print(f"| {name} | {sum(mine.values()):,} | {mine.get('ok', 0):,} | {other or '-'} |")
    print("\n| check | baseline | end | allowed growth | result |\n|---|---|---|---|---|")

    def check(name, base, last, allowed, unit=1):
        ok = base is not None and last is not None and last - base <= allowed
        if not ok:
            failures.append(name)
        shown = "no answer" if last is None else fmt(last, unit)
        print(f"| {name} | {fmt(base, unit)} | {shown} | {fmt(allowed, unit)} | {'PASS' if ok else 'FAIL'} |")

    e = end or {}
    check("open connections, idle (orders_http_connections_open)", start["open"], e.get("open"), 1)
    check("connections closed at accept (orders_http_connections_refused_total)", start["refused"], e.get("refused"), 0)
    check("stream connections, idle (orders_ws_clients)", start["ws"], e.get("ws"), 0)
    check(f"connections answered otherwise than expected (of {done:,}; {closed:,} closed before any answer)", 0, bad, 0)

    base = soak.process_baseline
    if base and end_process:
        check("open file descriptors (from the end of the warm-up)", base["fds"], end_process["fds"],
              max(16, base["fds"] // 20))
        check("threads (from the end of the warm-up)", base["threads"], end_process["threads"], 8)
    if soak.heap_points and end_heap is not None:
        first = soak.heap_points[0][1]
        check("heap after a full GC, MiB (from the end of the warm-up)", first, end_heap, max(16 * MIB, first // 10),
              MIB)
        points = soak.heap_points + [(soak.seconds, end_heap)]
        trend = f"; slope {slope(points) * 60 / MIB:+.2f} MiB a minute" if len(points) >= 3 else ""
        print(f"\nheap after a full GC, MiB, at {', '.join(f'{t:.0f} s: {h / MIB:.1f}' for t, h in points)}"
              f"{trend}")
    if not end:
        last = soak.last_answered()
        seen = f"; it last answered {last['t']:.0f} s into the load: open {fmt(last['metrics']['open'])}, refused " \
               f"{fmt(last['metrics']['refused'])}, stream {fmt(last['metrics']['ws'])}" if last else ""
        print(f"\nthe service's /metrics did not answer after the load (closed at accept){seen}")
    peak = max((s["metrics"]["open"] for s in soak.samples if s["metrics"]), default=None)
    print(f"\nthe most open connections a sample saw during the load: {fmt(peak)}")
    if soak.skipped:
        print(f"\n{soak.skipped:,} connections not opened: {MAX_IN_FLIGHT} were already waiting for the service")
    print(f"\nRESULT: {'PASS' if not failures else 'FAIL: ' + '; '.join(failures)}")
    return not failures


def slope(points):
    n = len(points)
    mt, mh = sum(t for t, _ in points) / n, sum(h for _, h in points) / n
    den = sum((t - mt) ** 2 for t, _ in points)
    return sum((t - mt) * (h - mh) for t, h in points) / den if den else 0.0


def start_service(jar, mode, heap, work):
    keys = Keys("keys", count=8, jar=jar, admin=True)
    db = "oe_churn_%d" % os.getpid() if mode != "memory" and "ORDERS_DB_URL" not in os.environ else None
    if db:
        subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f"CREATE DATABASE {db}"], check=True)
    port = free_port()
    env = keys.service(service_env(work, port, mode, db))
    for name, default in (("ORDERS_ENGINE_DEDUP_WINDOW", "1000"), ("ORDERS_QUERY_RETAINED_FINAL_ORDERS", "1000"),
                          ("ORDERS_ENGINE_MAX_RESTING_ORDERS", "100000")):
        env.setdefault(name, default)
    for name in ("ORDERS_HTTP_MAX_CONNECTIONS_PER_ADDRESS", "ORDERS_WS_MAX_CONNECTIONS_PER_ADDRESS",
                 "ORDERS_WS_ANONYMOUS_PERCENT"):
        if name not in os.environ:
            env.pop(name, None)   # the soak runs with the shipped per-address bounds, its clients on 16 addresses
    proc = subprocess.Popen(["java", f"-Xms{heap}", f"-Xmx{heap}", "-XX:+UseG1GC", f"-Xlog:gc:file={work}/gc.log",
                             "-jar", jar], env=env, stdout=open(f"{work}/service.log", "w"), stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    wait_http(url, proc)
    secrets = [l.strip() for l in open(keys.secrets_file) if l.strip()]
    return proc, url, secrets, keys.admin_headers(), db


def main():
    minutes = float(arg("minutes", "10"))
    rate = float(arg("rate", "200"))
    url = arg("url", "")
    warmup = float(arg("warmup", str(min(30.0, minutes * 12))))
    every, settle_seconds = float(arg("every", "5")), float(arg("settle", "15"))
    proc, db, work = None, None, tempfile.mkdtemp(prefix="churn-")
    overrides = " ".join(f"{k}={v}" for k, v in sorted(os.environ.items())
                         if k.startswith("ORDERS_") and k not in ("ORDERS_LOAD_KEYS", "ORDERS_LOAD_ADMIN_KEY"))
    try:
        if url:
            secrets = [l.strip() for l in open(os.environ["ORDERS_LOAD_KEYS"]) if l.strip()]
            admin = os.environ.get("ORDERS_LOAD_ADMIN_KEY")
            service = Service(url, {"Authorization": "Bearer " + admin} if admin else {}, int(arg("pid", "0")))
            what = url
        else:
            jar = os.path.abspath(arg("jar", f"{ROOT}/target/order-entry.jar"))
            proc, url, secrets, headers, db = start_service(jar, arg("mode", "durable"), arg("heap", "512m"), work)
            service = Service(url, headers, proc.pid)
            what = f"{os.path.relpath(jar, ROOT)} started with {overrides or 'the defaults'}"
        parsed = urllib.parse.urlparse(url)
        target = Target(parsed.hostname, parsed.port or 80, secrets, f"{os.getpid()}-{int(time.time())}")
        start = idle(service, ("open", "refused", "ws", "heap", "threads"))
        print(f"churn soak: {minutes:g} min at {rate:g} new connections a second against {what}; idle before: open "
              f"{fmt(start['open'])}, refused {fmt(start['refused'])}, stream {fmt(start['ws'])}; work dir {work}",
              flush=True)
        soak = Soak(service, target, minutes * 60, rate, warmup, every)
        asyncio.run(soak.run())
        end, waited = settle(service, start, settle_seconds)
        end_process, end_heap = service.process(), service.heap_after_gc()
        alive = proc is None or proc.poll() is None
        if not alive:
            print(f"the service exited with {proc.returncode} during the soak")
        described = (f"`{' '.join(['loadtest/churn.sh'] + sys.argv[1:])}`, {minutes:g} min at {rate:g} connections/s"
                     f" against {what}")
        passed = report(soak, start, end, end_process, end_heap, waited, described) and alive
    finally:
        if proc:
            stop(proc)
        if db:
            subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f"DROP DATABASE IF EXISTS {db}"])
        print("service log, GC log in", work)
    sys.exit(0 if passed else 1)


if __name__ == "__main__":
    main()
