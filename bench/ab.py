#!/usr/bin/env python3
"""Two configurations of the service, measured in turns within one run, so that the machine's drift cancels out.

Run through bench/ab.sh, which builds the jar first. Usage:
    python3 bench/ab.py [a=keys] [b=none] [rounds=10] [window=10] [warmup=60] [mode=memory] [wrk=2x64]
                        [jar_a=JAR] [jar_b=JAR]   (two builds: e.g. a=keys b=keys jar_a=/tmp/old/order-entry.jar)
                        [env_a=K=V,K=V] [env_b=K=V]   (two settings: e.g. env_a=ORDERS_RISK=balances)

Why: on this machine (a VM on shared hardware) the same run gives 22k or 33k orders a second from one minute to the
next (loadtest/RESULTS.md, "Issue 14"), far more than the few percent an A/B is meant to see; runs of a few minutes
each, one configuration after the other, measure the drift as much as the difference. Here both services run
side by side for the whole measurement: each is started and warmed up (wrk for `warmup` s, the other one idle), then
`rounds` rounds each give both a `window`-second wrk window, one after the other (A then B in odd rounds, B then A in
even ones), and each round's two windows are compared. The median of the rounds' ratios is the figure; the spread of
the ratios says how far to trust it.

a and b are authentication modes (bench/benchlib.py Keys): keys (API keys and rate limits, as the service ships,
orders spread over 64 keys) and none (ORDERS_AUTH=none, orders naming their accounts). For each window: requests, req/s, the service's CPU per
order (utime + stime of all its threads, /proc/PID/stat) and wrk's (getrusage), since wrk shares the two cores.
Only loopback addresses are used; every process it starts is stopped.
"""
import os, re, resource, shutil, statistics, subprocess, sys, tempfile, time

from benchlib import SERVICE_OPTS, Keys, arg, free_port, metric, metrics, service_env, stop, wait_http

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HZ = os.sysconf("SC_CLK_TCK")
A = arg("a", "keys")
B = arg("b", "none")
ROUNDS = int(arg("rounds", "10"))
WINDOW = int(arg("window", "10"))
WARMUP = int(arg("warmup", "60"))
MODE = arg("mode", "memory")
WRK_THREADS, WRK_CONNECTIONS = arg("wrk", "2x64").split("x")
JAVA = os.environ.get("JAVA", "java")
JAVA_OPTS = os.environ.get("JAVA_OPTS", SERVICE_OPTS).split()
JAR = os.environ.get("ORDERS_JAR", os.path.join(ROOT, "target", "order-entry.jar"))
# two builds instead of two settings: jar_a=/path/to/old.jar (b runs JAR unless jar_b= names another)
JAR_A = arg("jar_a", JAR)
JAR_B = arg("jar_b", JAR)
# two sets of settings: env_a=ORDERS_RISK=balances,ORDERS_FEES=BTCUSD:0.001:0.002 (comma separated K=V). A service
# with ORDERS_RISK=balances gets each load key's account funded (through POST /admin/balances with an admin key) far
# beyond what the run trades, once it is ready, so that its orders are held and settled but never refused
ENV = {side: dict(kv.split("=", 1) for kv in arg(f"env_{side}", "").split(",") if kv) for side in ("a", "b")}
# two sets of JVM flags: JAVA_OPTS_A / JAVA_OPTS_B (each defaults to JAVA_OPTS)
OPTS = {"a": os.environ.get("JAVA_OPTS_A", " ".join(JAVA_OPTS)).split(),
        "b": os.environ.get("JAVA_OPTS_B", " ".join(JAVA_OPTS)).split()}


class Service:
    def __init__(self, label, auth, jar):
        self.label = label
        self.jar = jar
        self.balances = ENV[label].get("ORDERS_RISK") == "balances"
        if self.balances and auth != "keys":
            raise SystemExit("funding a balances run needs API keys (a=keys / b=keys): the load's accounts are theirs")
        self.keys = Keys(auth, jar=jar, admin=self.balances)
        self.work = tempfile.mkdtemp(prefix=f"ab-{label}-")
        self.port = free_port()
        self.db = f"oe_ab_{label}_{os.getpid()}"
        env = self.keys.service(service_env(self.work, self.port, MODE, self.db))
        env.update(ENV[label])
        self.proc = subprocess.Popen([JAVA] + OPTS[label] + ["-jar", jar], env=env,
                                     stdout=open(os.path.join(self.work, "service.log"), "w"),
                                     stderr=subprocess.STDOUT)
        self.url = f"http://127.0.0.1:{self.port}"
        self.windows = []

    def fund(self):
        """With balances: every load account gets 10^10 USD, 10^8 BTC and 10^9 ETH, once."""
        if not self.balances:
            return
        import json, urllib.request
        count = sum(1 for _ in open(self.keys.secrets_file))
        for n in range(1, count + 1):
            for asset, amount in (("USD", "10000000000"), ("BTC", "100000000"), ("ETH", "1000000000")):
                body = json.dumps({"asset": asset, "amount": amount, "reference": f"ab-{n}-{asset}"}).encode()
                req = urllib.request.Request(f"{self.url}/admin/balances/bench-{n}", data=body, method="POST",
                                             headers=self.keys.admin_headers())
                with urllib.request.urlopen(req, timeout=30) as r:
                    r.read()
        print(f"== {self.label}: funded {count} accounts", file=sys.stderr)

    def ticks(self):
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])

    def drain(self, timeout=120):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if metric(metrics(self.url), "orders_http_waiting_requests") == 0:
                return
            time.sleep(0.2)
        print(f"warning: {self.label} did not drain within {timeout} s", file=sys.stderr)

    def wrk(self, seconds):
        env = self.keys.load(dict(os.environ, ORDERS_LOADTEST_DIR=os.path.join(ROOT, "loadtest"),
                                  ORDERS_RUN_ID=str(int(time.time() * 1000))))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        ticks0 = self.ticks()
        res = subprocess.run(["wrk", f"-t{WRK_THREADS}", f"-c{WRK_CONNECTIONS}", f"-d{seconds}s", "-s",
                              os.path.join(ROOT, "loadtest", "order-submission.lua"), self.url], env=env,
                             cwd=self.work, capture_output=True, text=True, check=True)
        self.drain()
        ticks1 = self.ticks()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        requests = int(re.search(r"(\d+) requests in", res.stdout).group(1))
        non2xx = re.search(r"non2xx=(\d+)", res.stdout)
        if non2xx and int(non2xx.group(1)) > 0:
            print(f"warning: {self.label}: {non2xx.group(1)} answers were not 2xx", file=sys.stderr)
        wrk_cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        return dict(requests=requests, rps=requests / seconds, cpu=(ticks1 - ticks0) / HZ * 1e6 / requests,
                    wrk=wrk_cpu * 1e6 / requests)

    def close(self):
        stop(self.proc)
        if MODE != "memory":
            subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", self.db], check=False)
        shutil.rmtree(self.work, ignore_errors=True)


def main():
    services = []
    try:
        services = [Service("a", A, JAR_A), Service("b", B, JAR_B)]
        for s in services:
            wait_http(s.url, s.proc)
            s.fund()
        for s in services:
            print(f"== {s.label} ({s.keys.describe()}): warm-up {WARMUP} s", file=sys.stderr)
            s.wrk(WARMUP)
        a, b = services
        rows = []
        for r in range(1, ROUNDS + 1):
            order = (a, b) if r % 2 == 1 else (b, a)
            got = {}
            for s in order:
                got[s.label] = s.wrk(WINDOW)
            rows.append((r, order[0].label, got["a"], got["b"]))
            print(f"== round {r}: a {got['a']['rps']:,.0f} req/s {got['a']['cpu']:.1f} µs, b {got['b']['rps']:,.0f}"
                  f" req/s {got['b']['cpu']:.1f} µs", file=sys.stderr)
        print(f"# A/B in turns: a = {a.keys.describe()}, {a.jar} {ENV['a'] or ''}; b = {b.keys.describe()}, {b.jar}"
              f" {ENV['b'] or ''}; mode {MODE}; {ROUNDS} rounds of"
              f" {WINDOW} s each, wrk -t{WRK_THREADS} -c{WRK_CONNECTIONS} loadtest/order-submission.lua, {WARMUP} s"
              f" warm-up each; JVM a: {' '.join(OPTS['a'])}; b: {' '.join(OPTS['b'])}\n")
        print("| round | first | a req/s | b req/s | a/b req/s | a CPU µs/order | b CPU µs/order | a/b CPU | a wrk µs | b wrk µs |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        rps_ratio, cpu_ratio = [], []
        for r, first, ra, rb in rows:
            rps_ratio.append(ra["rps"] / rb["rps"])
            cpu_ratio.append(ra["cpu"] / rb["cpu"])
            print(f"| {r} | {first} | {ra['rps']:,.0f} | {rb['rps']:,.0f} | {rps_ratio[-1]:.3f} | {ra['cpu']:.1f} |"
                  f" {rb['cpu']:.1f} | {cpu_ratio[-1]:.3f} | {ra['wrk']:.1f} | {rb['wrk']:.1f} |")
        print(f"\nMedian of the rounds: a/b throughput **{statistics.median(rps_ratio):.3f}** (spread"
              f" {min(rps_ratio):.3f}-{max(rps_ratio):.3f}), a/b service CPU per order"
              f" **{statistics.median(cpu_ratio):.3f}** (spread {min(cpu_ratio):.3f}-{max(cpu_ratio):.3f})")
    finally:
        for s in services:
            s.close()


if __name__ == "__main__":
    main()
