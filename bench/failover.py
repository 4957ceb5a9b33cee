#!/usr/bin/env python3
"""How long a cluster takes to answer orders again after its leader is killed, and where the time goes.

Run through `bench/cluster.sh failover [runs=5] [load=10] [after=10] [leader_timeout=]`, which builds the jar first.

Each run starts three members of the jar on loopback with the service's default cluster settings (no
ORDERS_CLUSTER_* timing variable, unless leader_timeout= sets ORDERS_CLUSTER_LEADER_TIMEOUT_MILLIS), places orders
from eight client threads round-robin on all members at about 130 a second, kills the leader with SIGKILL after
`load` seconds, and goes on for `after` seconds on the two survivors (a client whose member died moves to the next, as
behind a load balancer). It reports, per run and as the median of the runs:
- first 201: from the kill to the first answer 201 to an order sent after the kill;
- the breakdown, from the survivors' logs (wall-clock milliseconds, the same clock as the kill's): detection (the
  first survivor's "leader heartbeat timeout"), election (the new leader's "is now LEADER"), new term applied (a
  survivor's engine applies the new leadership term) and client follows (a survivor's cluster client follows the new
  leader);
- every answer other than 201 from the kill on, by status and code, and whether any of them is one a client may not
  resend blindly (503 OUTCOME_UNKNOWN: resend only with the same clientOrderId).
Authentication off, no database, journal not used (cluster mode): this measures the failover, not the orders' cost.
"""
import base64, http.client, json, os, re, shutil, signal, statistics, subprocess, sys, tempfile, threading, time
from datetime import datetime

from benchlib import arg, free_port, service_env, stop, wait_http

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNS = int(arg("runs", "5"))
LOAD = float(arg("load", "10"))
AFTER = float(arg("after", "10"))
LEADER_TIMEOUT = arg("leader_timeout", "")
THREADS = 8
RATE = 130.0
JAVA = os.environ.get("JAVA", "java")
JAR = os.path.join(ROOT, "target", "order-entry.jar")
OPTS = "-Xms1g -Xmx1g -XX:+UseG1GC -XX:+PerfDisableSharedMem".split()
STAMP = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3})")


def start_members(root):
    members = "|".join(f"{i}," + ",".join(f"127.0.0.1:{free_port()}" for _ in range(5)) for i in range(3))
    secret = os.path.join(root, "cluster-secret")
    with os.fdopen(os.open(secret, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as out:
        out.write(base64.b64encode(os.urandom(32)).decode() + "\n")
    procs, ports, logs = [], [], []
    for i in range(3):
        port = free_port()
        work = os.path.join(root, f"member-{i}")
        os.makedirs(work)
        env = service_env(work, port, "memory", None)
        env.update(ORDERS_AUTH="none", ORDERS_CLUSTER_MEMBERS=members, ORDERS_CLUSTER_MEMBER_ID=str(i),
                   ORDERS_CLUSTER_DIR=os.path.join(work, "cluster"), ORDERS_CLUSTER_SECRET_FILE=secret)
        for name in [k for k in env if k.startswith("ORDERS_CLUSTER_") and "TIMEOUT" in k]:
            del env[name]
        if LEADER_TIMEOUT:
            env["ORDERS_CLUSTER_LEADER_TIMEOUT_MILLIS"] = LEADER_TIMEOUT
        log = os.path.join(work, "member.log")
        procs.append(subprocess.Popen([JAVA] + OPTS + ["-jar", JAR], env=env, cwd=work, stdout=open(log, "w"),
                                      stderr=subprocess.STDOUT))
        ports.append(port)
        logs.append(log)
    try:
        for port, proc in zip(ports, procs):
            wait_http(f"http://127.0.0.1:{port}", proc)
    except BaseException:
        for i, proc in enumerate(procs):
            if proc.poll() is not None:
                with open(logs[i], errors="replace") as f:
                    print(f"member {i} exited with {proc.returncode}; the end of its log:\n"
                          + "".join(f.readlines()[-15:]), file=sys.stderr)
            else:
                stop(proc)
        raise
    return procs, ports, logs


def leader_of(ports):
    for _ in range(600):
        for i, port in enumerate(ports):
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request("GET", "/metrics")
                text = conn.getresponse().read().decode()
                conn.close()
                if re.search(r"^orders_cluster_leader 1(\.0)?$", text, re.M):
                    return i
            except OSError:
                pass
        time.sleep(0.1)
    raise SystemExit("no member says it leads")


class Load:
    """Eight threads placing orders round-robin on the members that are up; every answer recorded with its times."""

    def __init__(self, ports):
        self.ports = ports
        self.down = set()
        self.running = True
        self.answers = []   # (sent, answered, status, code)
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self.run, args=(t,), daemon=True) for t in range(THREADS)]

    def run(self, t):
        conns = {}
        interval = THREADS / RATE
        n = 0
        next_at = time.time()
        while self.running:
            member = (t + n) % len(self.ports)
            n += 1
            if member in self.down:
                continue
            body = json.dumps({"accountId": f"acct-{t}", "clientOrderId": f"fo-{t}-{n}-{int(next_at * 1000)}",
                               "symbol": "BTCUSD", "side": "BUY" if n % 2 else "SELL", "type": "LIMIT",
                               "price": "49000.00" if n % 2 else "51000.00", "quantity": "0.0010",
                               "timeInForce": "GTC"})
            sent = time.time()
            try:
                conn = conns.get(member) or http.client.HTTPConnection("127.0.0.1", self.ports[member], timeout=30)
                conns[member] = conn
                conn.request("POST", "/api/v1/orders", body, {"Content-Type": "application/json"})
                response = conn.getresponse()
                text = response.read().decode()
                code = ""
                if response.status != 201:
                    try:
                        code = json.loads(text).get("error", {}).get("code", "") or json.loads(text).get("code", "")
                    except (ValueError, AttributeError):
                        code = text[:40]
                with self.lock:
                    self.answers.append((sent, time.time(), response.status, code))
            except OSError:
                conns.pop(member, None)   # the member died: a client behind a load balancer goes elsewhere
            next_at += interval
            time.sleep(max(0.0, next_at - time.time()))

    def start(self):
        for thread in self.threads:
            thread.start()

    def stop(self):
        self.running = False
        for thread in self.threads:
            thread.join(timeout=40)


def first_line_time(log, pattern, after):
    """@return the wall-clock time (s) of the first line of log matching pattern at or after `after`, or None"""
    with open(log, errors="replace") as f:
        for line in f:
            m = STAMP.match(line)
            if m and re.search(pattern, line):
                t = datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S.%f").timestamp()
                if t >= after - 0.001:
                    return t
    return None


def one_run(n):
    root = tempfile.mkdtemp(prefix="bench-failover-")
    procs = []
    try:
        procs, ports, logs = start_members(root)
        leader = leader_of(ports)
        load = Load(ports)
        load.start()
        time.sleep(LOAD)
        killed = time.time()
        procs[leader].send_signal(signal.SIGKILL)
        load.down.add(leader)
        time.sleep(AFTER)
        load.stop()
        survivors = [i for i in range(3) if i != leader]

        def earliest(pattern):
            times = [first_line_time(logs[i], pattern, killed) for i in survivors]
            times = [t for t in times if t is not None]
            return (min(times) - killed) * 1000 if times else float("nan")

        after = [a for a in load.answers if a[0] >= killed]
        ok = [a for a in after if a[2] == 201]
        first201 = (min(a[1] for a in ok) - killed) * 1000 if ok else float("nan")
        codes = {}
        for a in load.answers:
            if a[1] >= killed and a[2] != 201:
                key = f"{a[2]} {a[3]}"
                codes[key] = codes.get(key, 0) + 1
        result = dict(first201=first201, detection=earliest(r"leader heartbeat timeout"),
                      election=earliest(r"is now LEADER"), term=earliest(r"applies leadership term"),
                      client=earliest(r"client follows the new leader"), codes=codes,
                      before=sum(1 for a in load.answers if a[0] < killed and a[2] == 201), after=len(ok))
        print(f"run {n}: leader {leader} killed; first 201 {first201:,.0f} ms; detection {result['detection']:,.0f},"
              f" election {result['election']:,.0f}, term applied {result['term']:,.0f}, client follows"
              f" {result['client']:,.0f} ms; other answers {codes or 'none'}", file=sys.stderr)
        return result
    finally:
        for proc in procs:
            if proc.poll() is None:
                stop(proc)
        shutil.rmtree(root, ignore_errors=True)


def main():
    results = [one_run(n + 1) for n in range(RUNS)]
    print(f"# Failover: 3 members, {'default settings' if not LEADER_TIMEOUT else 'leader timeout ' + LEADER_TIMEOUT + ' ms'},"
          f" ~{RATE:.0f} orders/s from {THREADS} threads round-robin, leader killed with SIGKILL after {LOAD:.0f} s\n")
    print("| run | first 201 ms | detection ms | election ms | new term applied ms | client follows ms | other answers |")
    print("|---|---|---|---|---|---|---|")
    for n, r in enumerate(results, 1):
        print(f"| {n} | {r['first201']:,.0f} | {r['detection']:,.0f} | {r['election']:,.0f} | {r['term']:,.0f} |"
              f" {r['client']:,.0f} | {', '.join(f'{k}: {v}' for k, v in sorted(r['codes'].items())) or 'none'} |")
    med = {k: statistics.median(r[k] for r in results) for k in ("first201", "detection", "election", "term", "client")}
    print(f"| median | {med['first201']:,.0f} | {med['detection']:,.0f} | {med['election']:,.0f} | {med['term']:,.0f} |"
          f" {med['client']:,.0f} | |")
    unsafe = sum(r["codes"].get("503 OUTCOME_UNKNOWN", 0) for r in results)
    print(f"\nanswers a client may not resend blindly (503 OUTCOME_UNKNOWN): {unsafe}")


if __name__ == "__main__":
    main()
