#!/usr/bin/env python3
"""The README's picture of the Grafana dashboard, from a real recorded load run with a database outage (issue 37).

Run through bench/dashboard.sh, as root: it stops and starts the local PostgreSQL.

    bench/dashboard.sh [seconds=300] [rate=2000] [outage_at=100] [outage=90] [out=docs/dashboard.png]
                       [jar=target/order-entry.jar] [keep=0]

Starts the service jar durable (bin/order-entry's JVM flags, API keys, a fresh database) and a real Prometheus
(scraping it every second, evaluating monitoring/prometheus/alerts.yml), places RATE orders a second for `seconds` s
with target/fixedrate plus a trickle of refusals (5 a second 422 PRICE_NOT_ON_TICK, 1 a second 401 INVALID_API_KEY),
stops PostgreSQL `outage_at` s into the load for `outage` s, waits 20 s after the load for persistence to catch up,
then asks Prometheus (query_range, step 2 s) for the queries of the panels of
monitoring/grafana/dashboards/order-entry.json, found by title, verbatim but for the Grafana variables ($job,
$instance, $__rate_interval), and draws them with gnuplot into one PNG, the outage shaded. It also evaluates every
query of every panel once (exit 1 if Prometheus refuses one) and reports the alerts that fired. keep=1 keeps the
work directory (data files, gnuplot script, logs, the TSDB) and prints it.
"""
import atexit, collections, datetime, http.client, json, math, os, re, secrets, shutil, signal, subprocess, sys, tempfile
import threading, time, urllib.error, urllib.parse, urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from benchlib import SERVICE_OPTS, Keys, arg, free_port, metrics, service_env, stop, wait_http  # noqa: E402

SECONDS = int(arg("seconds", "300"))
RATE = int(arg("rate", "2000"))
OUTAGE_AT = float(arg("outage_at", "100"))
OUTAGE = float(arg("outage", "90"))
OUT = os.path.join(ROOT, arg("out", "docs/dashboard.png"))
JAR = os.path.join(ROOT, arg("jar", "target/order-entry.jar"))
KEEP = arg("keep", "0") == "1"
SETTLE, STEP = 20, 2
JAVA = os.environ.get("JAVA", "java")
JAVA_OPTS = os.environ.get("JAVA_OPTS", SERVICE_OPTS).split()
FIXEDRATE = os.path.join(ROOT, "target", "fixedrate")
DASHBOARD = os.path.join(ROOT, "monitoring", "grafana", "dashboards", "order-entry.json")
ALERT_RULES = os.path.join(ROOT, "monitoring", "prometheus", "alerts.yml")
VARIABLES = {"$job": "order-entry", "$instance": ".*", "$__rate_interval": "10s"}
# the panels drawn, by their titles on the dashboard, in rows of two: (title, y label, log y, {target: (scale, y2)})
PLOTS = [("Order requests per second by HTTP status", "requests/s (log)", True, {}),
         ("Order answer latency", "ms (log)", True, {0: (1000, 0), 1: (1000, 0), 2: (1000, 0)}),
         ("Persistence lag (events)", "events", False, {}),
         ("Persistence lag (seconds)", "s", False, {}),
         ("GC pause time", "ms (y2: % of wall time paused, dashed)", False, {0: (1000, 0), 1: (1000, 0), 2: (100, 1)}),
         ("Persistence state", "each row: low 0, high 1", False, {})]


def die(code, message):
    print(f"dashboard: {message}", file=sys.stderr)
    sys.exit(code)


def require():
    if os.geteuid() != 0:
        die(2, "run as root: it stops and starts the local PostgreSQL")
    for tool, package in (("prometheus", "prometheus"), ("gnuplot", "gnuplot-nox"), ("pg_ctlcluster", "postgresql-common"),
                          ("dropdb", "postgresql-client")):
        if not shutil.which(tool):
            die(2, f"{tool} is not installed (apt-get install -y {package})")
    if not os.access(FIXEDRATE, os.X_OK):
        die(2, f"no {FIXEDRATE}: run bench/dashboard.sh, which builds it")


def pg(action):
    """Runs pg_ctlcluster on the local cluster: a process whose output is in its stdout."""
    version = sorted(os.listdir("/etc/postgresql"))[0]
    return subprocess.Popen(["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", action],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def pg_ensure_started():
    if pg("status").wait() != 0:
        print(f"dashboard: starting PostgreSQL again: {pg('start').communicate()[0].strip()}", file=sys.stderr)


def pg_do(action):
    """Stops or starts PostgreSQL; returns when it stopped taking connections (a fast shutdown closes them all at
    once) or took them again (pg_ctlcluster start returns about 2 s after that)."""
    when, proc = time.time(), pg(action)
    while action == "start" and subprocess.run(["pg_isready", "-q", "-h", "127.0.0.1"]).returncode != 0 \
            and proc.poll() in (None, 0):
        time.sleep(0.05)
    when = time.time() if action == "start" else when
    if proc.wait() != 0:
        raise SystemExit(f"dashboard: pg_ctlcluster {action} failed: {proc.stdout.read().strip()}")
    return when


class Trickle(threading.Thread):
    """About 5 orders a second priced off the tick (422) with a valid key and 1 a second with an unknown key (401)."""

    def __init__(self, port, secret):
        super().__init__(daemon=True)
        self.port, self.secret, self.halt = port, secret, threading.Event()
        self.counts, self.errors, self.fatal = collections.Counter(), collections.Counter(), None
        self.bad = "k" + secrets.token_hex(8) + "." + secrets.token_urlsafe(32)[:43]

    def run(self):
        try:
            good, bad = (http.client.HTTPConnection("127.0.0.1", self.port, timeout=10) for _ in range(2))
            start, n = time.monotonic(), 0
            while not self.halt.wait(max(0.0, start + n * 0.2 - time.monotonic())):
                self.send(good, self.secret, n)
                if n % 5 == 0:
                    self.send(bad, self.bad, n)
                n += 1
        except BaseException as e:  # reported by main(), which exits 1
            self.fatal = repr(e)
            raise

    def send(self, conn, key, n):
        body = json.dumps({"clientOrderId": f"dash-{os.getpid()}-{n}-{key[:4]}", "symbol": "BTCUSD", "side": "BUY",
                           "type": "LIMIT", "price": "50000.005", "quantity": "0.01"})
        try:
            conn.request("POST", "/api/v1/orders", body, {"Authorization": "Bearer " + key,
                                                          "Content-Type": "application/json"})
            response = conn.getresponse()
            response.read()
            self.counts[response.status] += 1
        except (OSError, http.client.HTTPException) as e:
            self.errors[type(e).__name__] += 1
            conn.close()


def start_prometheus(work, port):
    pport, config = free_port(), os.path.join(work, "prometheus.yml")
    with open(config, "w") as f:
        f.write(f"global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n  evaluation_interval: 1s\n"
                f"rule_files:\n  - {json.dumps(ALERT_RULES)}\n"
                f"scrape_configs:\n  - job_name: order-entry\n    static_configs:\n"
                f"      - targets: ['127.0.0.1:{port}']\n")
    proc = subprocess.Popen(["prometheus", f"--config.file={config}", f"--storage.tsdb.path={work}/tsdb",
                             f"--web.listen-address=127.0.0.1:{pport}"], cwd=work,
                            stdout=open(f"{work}/prometheus.log", "w"), stderr=subprocess.STDOUT)
    return proc, f"http://127.0.0.1:{pport}"


def api(purl, path, **params):
    try:
        with urllib.request.urlopen(f"{purl}/api/v1/{path}?{urllib.parse.urlencode(params)}", timeout=60) as r:
            return json.load(r)
    except urllib.error.HTTPError as e:  # 400/422 carry Prometheus' error as JSON
        return json.load(e)


def expr(text):
    for name, value in VARIABLES.items():
        text = text.replace(name, value)
    return text


def legend(fmt, labels):
    if not fmt:
        return "{" + ",".join(f'{k}="{v}"' for k, v in sorted(labels.items())) + "}"
    return re.sub(r"\{\{\s*(\w+)\s*\}\}", lambda m: labels.get(m.group(1), ""), fmt).strip()


def dashboard_panels():
    with open(DASHBOARD) as f:
        top = json.load(f)["panels"]
    return [p for q in top for p in [q] + q.get("panels", []) if p.get("targets")]


def query(purl, panel, target, path, **params):
    """The result of a panel's target, its Grafana variables substituted; exit 1 if Prometheus refuses it."""
    body = api(purl, path, query=expr(target["expr"]), **params)
    if body.get("status") != "success":
        raise SystemExit(f"dashboard: panel '{panel['title']}': Prometheus refused {expr(target['expr'])}:"
                         f" {body.get('error')}")
    return body["data"]["result"]


def panel_series(purl, panel, start, end):
    """[(target index, legend, {time: value})] of every series the panel's queries return over the range."""
    return [(i, legend(target.get("legendFormat", ""), s["metric"]), {float(t): float(v) for t, v in s["values"]})
            for i, target in enumerate(panel["targets"])
            for s in query(purl, panel, target, "query_range", start=start, end=end, step=STEP)]


def check_every_panel(purl, panels):
    """([titles of panels with data], [without]) of every panel, each target evaluated once, now."""
    found = [(p["title"], sum(len(query(purl, p, t, "query")) for t in p["targets"])) for p in panels]
    return [t for t, n in found if n], [t for t, n in found if not n]


def alerts_fired(purl, start, end):
    """{alertname: {state: (first, last) time}} from Prometheus' ALERTS series over the run."""
    body = api(purl, "query_range", query="ALERTS", start=start, end=end, step=STEP)
    seen = collections.defaultdict(dict)
    for s in body["data"]["result"]:
        times = [float(t) for t, v in s["values"] if float(v) == 1]
        if times:
            seen[s["metric"]["alertname"]][s["metric"]["alertstate"]] = (min(times), max(times))
    return seen


def wait_until(when, load):
    while time.time() < when:
        if load.poll() is not None and load.returncode != 0:
            raise SystemExit(f"dashboard: target/fixedrate exited with {load.returncode}: {load.stderr.read()}")
        time.sleep(min(0.5, max(0.0, when - time.time())))


def run_load(port, keys):
    """Runs the load with the outage; returns (t0, [stopped, started], fixedrate's fields, its stderr, trickle)."""
    with open(keys.secrets_file) as f:
        trickle = Trickle(port, f.readline().strip())
    load = subprocess.Popen([FIXEDRATE, "127.0.0.1", str(port), str(RATE), str(SECONDS), "0", "64",
                             keys.secrets_file], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    t0 = time.time()
    trickle.start()
    try:
        wait_until(t0 + OUTAGE_AT, load)
        print(f"== {time.time() - t0:.0f} s: stopping PostgreSQL for {OUTAGE:.0f} s", file=sys.stderr)
        stopped = pg_do("stop")
        wait_until(stopped + OUTAGE, load)
        started = pg_do("start")
        print(f"== {time.time() - t0:.0f} s: PostgreSQL started again", file=sys.stderr)
        out, err = load.communicate(timeout=SECONDS + 120)
    finally:
        stop(load)
        trickle.halt.set()
        trickle.join(15)
    if load.returncode != 0:
        raise SystemExit(f"dashboard: target/fixedrate exited with {load.returncode}: {err}")
    fields = dict(kv.split("=", 1) for kv in out.split()[1:])
    return t0, [stopped, started], fields, err.strip(), trickle


def answered_by_status(url):
    counts = collections.Counter()
    for m in re.finditer(r'^http_server_requests_seconds_count\{([^}]*)\} (\S+)$', metrics(url), re.M):
        labels = dict(re.findall(r'(\w+)="([^"]*)"', m.group(1)))
        if labels.get("route", "").startswith("/api/v1/orders") and labels.get("method") == "POST":
            counts[labels.get("status", "?")] += int(float(m.group(2)))
    return dict(sorted(counts.items()))


def write_data(work, name, series, t0):
    path = os.path.join(work, re.sub(r"\W+", "_", name).strip("_") + ".dat")
    times = sorted({t for _, _, values in series for t in values})
    with open(path, "w") as f:
        f.write("# seconds " + " | ".join(leg for _, leg, _ in series) + "\n")
        for t in times:
            f.write(f"{t - t0:.0f} " + " ".join(repr(v.get(t, float("nan"))) for _, _, v in series) + "\n")
    return path


def q(text):
    return "'" + text.replace("'", "''") + "'"


def qq(text):  # a gnuplot string in which \n is a new line
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def plot_lines(path, series, scales, log, state):
    """[(gnuplot plot clause, on y2, the values it draws)] of the series gnuplot can draw."""
    out = []
    for col, (i, leg, values) in enumerate(series, start=2):
        scale, y2 = scales.get(i, (1, 0))
        drawn = [v * scale for v in values.values() if math.isfinite(v) and (v > 0 or not log)]
        if drawn:  # gnuplot stops on a plot with no point it can draw
            using = f"(${col}*0.7+{col - 2})" if state else f"(${col}*{scale})"
            out.append((f"{q(path)} using 1:{using} with {'steps' if state else 'lines'} lw 1.6"
                        f"{' dt 2 axes x1y2' if y2 else ''} title {q(leg)}", y2, drawn))
    return out


def headroom(values, log):
    """The top of a y axis that leaves the upper quarter or so to the key."""
    top, bottom = max(values, default=1.0) or 1.0, min(values, default=1.0)
    return top * 10 ** (0.4 * max(1.0, math.log10(top / bottom))) if log else top * 1.45


def draw(work, plots, t0, outage, caption):
    """plots: [(title, y label, log y, scales, data file, series)]: one PNG, the outage shaded."""
    a, b = outage[0] - t0, outage[1] - t0
    terminal = "pngcairo size 1600,1000 font ',10'" if "pngcairo" in subprocess.run(
        ["gnuplot", "-e", "set terminal"], capture_output=True, text=True).stderr else "png size 1600,1000"
    gp = [f"set terminal {terminal}", "set termoption noenhanced", f"set output {q(OUT)}", "set grid",
          "set key top right font ',8' opaque box", f"set xrange [-5:{SECONDS + SETTLE}]",
          "set xlabel 'seconds since the load started'",
          f"set object 1 rect from first {a:.1f}, graph 0 to first {b:.1f}, graph 1 behind "
          "fc rgb '#ffd0d0' fs solid 0.7 noborder",
          f"set label 1 'PostgreSQL stopped' at first {(a + b) / 2:.1f}, graph 0.95 center tc rgb '#aa0000' front",
          f"set multiplot layout 3,2 title {qq(caption)} font ',12'"]
    for title, ylabel, log, scales, path, series in plots:
        state = title == "Persistence state"
        lines = plot_lines(path, series, scales, log, state)
        y1 = [v for _, y2, drawn in lines if not y2 for v in drawn]
        y2 = [v for _, y2, drawn in lines if y2 for v in drawn]
        gp += [f"set title {q(title)}", f"set ylabel {q(ylabel)}",
               "set logscale y" if log else "unset logscale y", "set ytics autofreq " + ("nomirror" if y2 else "mirror"),
               f"set yrange [{'*' if log else 0}:{headroom(y1, log)}]", f"set y2range [0:{headroom(y2, False)}]",
               "set y2tics" if y2 else "unset y2tics"]
        if state:
            rows = [leg for _, leg, _ in series]
            gp += [f"set yrange [-0.2:{len(rows) + 0.7}]",
                   "set ytics (" + ", ".join(f"{q(r)} {k + 0.35}" for k, r in enumerate(rows)) + ")"]
        gp.append("plot " + ", \\\n     ".join([line for line, _, _ in lines] or ["0 lc rgb 'white' title 'no data'"]))
    gp.append("unset multiplot")
    script = os.path.join(work, "dashboard.gp")
    with open(script, "w") as f:
        f.write("\n".join(gp) + "\n")
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    subprocess.run(["gnuplot", script], check=True)


def collect(work, purl, t0, end):
    """The plotted panels' series over the run, written to data files: (plots for draw(), {title: series})."""
    panels = {p["title"]: p for p in dashboard_panels()}
    found, plots = {}, []
    for title, ylabel, log, scales in PLOTS:
        if title not in panels:
            raise SystemExit(f"dashboard: no panel titled '{title}' in {DASHBOARD}")
        found[title] = panel_series(purl, panels[title], t0 - 5, end)
        plots.append((title, ylabel, log, scales, write_data(work, title, found[title], t0), found[title]))
    return plots, found


def back_to(series, after, level):
    """Seconds from `after` until every series of a panel is at or under level again, or None."""
    times = sorted(t for t in series[0][2] if t >= after) if series else []
    back = [t for t in times if all(values.get(t, level + 1) <= level for _, _, values in series)]
    return back[0] - after if back else None


def peak(series, since=0.0, until=float("inf")):
    return max((v for _, _, s in series for t, v in s.items() if v == v and since <= t <= until), default=0.0)


def report(work, purl, t0, outage, end, fields, err, trickle, answered):
    """Draws the picture, checks every panel's queries and prints the summary; returns the exit status."""
    plots, found = collect(work, purl, t0, end)
    a, b = outage[0] - t0, outage[1] - t0
    draw(work, plots, t0, outage, f"The order-entry Grafana dashboard's queries on a recorded run,"
         f" {datetime.datetime.fromtimestamp(t0):%Y-%m-%d %H:%M}, durable, {os.cpu_count()} cores: {RATE} orders/s for"
         f" {SECONDS} s (target/fixedrate) + 5/s 422 and 1/s 401,\nPostgreSQL stopped {a:.0f}-{b:.0f} s; Prometheus"
         f" scraping every 1 s, step {STEP} s, $job = order-entry, $instance = .*, $__rate_interval = 10s"
         f" (bench/dashboard.sh)")
    with_data, without = check_every_panel(purl, dashboard_panels())
    fired = alerts_fired(purl, t0 - 5, end)
    active = api(purl, "alerts")["data"]["alerts"]
    lag, lag_s = found["Persistence lag (events)"], found["Persistence lag (seconds)"]
    before = peak(lag, t0, outage[0])
    back = [(what, back_to(lag, outage[1], level)) for what, level in
            ((f"its level before the outage (<= {before:.0f} events)", before), ("0 events", 0))]
    print(f"# Dashboard run: {RATE} orders/s for {SECONDS} s, PostgreSQL stopped from {a:.1f} s to {b:.1f} s after the"
          f" load started (until it took connections again), then {SETTLE} s without load\n"
          f"fixedrate: sent {fields['sent']}, answered {fields['answered']} ({fields['non2xx']} non-2xx), errors"
          f" {fields['errors']}\n  {err}\n"
          f"trickle: answered {dict(sorted(trickle.counts.items()))}, errors {dict(trickle.errors) or 'none'}"
          + (f", STOPPED by {trickle.fatal}" if trickle.fatal else "") + "\n"
          f"the service's own count of its POST /api/v1/orders answers by status: {answered}\n"
          f"max persistence lag: {peak(lag):.0f} events, {peak(lag_s):.1f} s (before the outage: {before:.0f} events,"
          f" {peak(lag_s, t0, outage[0]):.2f} s)")
    for what, seconds in back:
        print(f"persistence lag back to {what}: " + (f"{seconds:.0f} s after PostgreSQL took connections again (step"
                                                     f" {STEP} s; the load ended {t0 + SECONDS - outage[1]:.0f} s after"
                                                     " it)" if seconds is not None else "never after the restart"))
    print("alerts during the run (Prometheus' ALERTS): " + ("; ".join(
        f"{name} " + ", ".join(f"{state} {f - t0:.0f}-{t - t0:.0f} s" for state, (f, t) in sorted(states.items()))
        for name, states in sorted(fired.items())) or "none"))
    print("alerts pending or firing at the end: " + (", ".join(
        f"{x['labels']['alertname']} ({x['state']})" for x in active) or "none"))
    print(f"dashboard panels with data: {len(with_data)}, without: {len(without)} ({', '.join(without)})\n"
          f"picture: {OUT}")
    return 1 if trickle.fatal else 0


def main():
    require()
    if pg("status").wait() != 0:
        die(2, "PostgreSQL is not running (pg_ctlcluster ... main start)")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    atexit.register(pg_ensure_started)
    keys = Keys(count=16, jar=JAR)
    work, db, procs = tempfile.mkdtemp(prefix="dashboard-"), f"orderentry_dashboard_{os.getpid()}", []
    try:
        port = free_port()
        procs.append(subprocess.Popen([JAVA] + JAVA_OPTS + ["-jar", JAR], cwd=work, stderr=subprocess.STDOUT,
                                      env=keys.service(service_env(work, port, "durable", db)),
                                      stdout=open(f"{work}/service.log", "w")))
        service = procs[-1]
        wait_http(f"http://127.0.0.1:{port}", service)
        prometheus, purl = start_prometheus(work, port)
        procs.append(prometheus)
        wait_http(purl, prometheus, "/-/ready", 60)
        time.sleep(5)  # a few scrapes before the load
        print(f"== {SECONDS} s of {RATE} orders/s, PostgreSQL stopped at {OUTAGE_AT:.0f} s for {OUTAGE:.0f} s",
              file=sys.stderr)
        t0, outage, fields, err, trickle = run_load(port, keys)
        time.sleep(SETTLE)
        answered = answered_by_status(f"http://127.0.0.1:{port}")
        code = report(work, purl, t0, outage, time.time(), fields, err, trickle, answered)
    finally:
        for proc in reversed(procs):
            stop(proc)
        pg_ensure_started()
        subprocess.run(["dropdb", "--if-exists", "-h", "127.0.0.1", "-U", "postgres", db], check=True)
        if KEEP:
            print(f"work directory: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    sys.exit(code)


if __name__ == "__main__":
    main()
