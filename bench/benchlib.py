"""Helpers the bench scripts share: their arguments, free loopback ports, /metrics, waiting for and stopping a process."""
import os, re, signal, socket, subprocess, sys, time, urllib.request


# The Dockerfile's heap and collector flags, which the benchmarks run the service (and its ceilings) with.
DOCKERFILE_OPTS = "-Xms3g -Xmx3g -Xmn24m -XX:+AlwaysPreTouch -XX:+UseG1GC -XX:+PerfDisableSharedMem"


def arg(name, default):
    for a in sys.argv[1:]:
        if a.startswith(name + "="):
            return a.split("=", 1)[1]
    return default


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def metrics(url):
    with urllib.request.urlopen(url + "/metrics", timeout=10) as r:
        return r.read().decode()


def metric(text, name):
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[-1])
    return 0.0


def service_env(work, port, mode, db):
    """The environment of a service under test: loopback, its own directories under work; mode "memory" runs without
    fsync or database, else it writes to PostgreSQL database db (unless ORDERS_DB_URL is set)."""
    env = dict(os.environ, ORDERS_HTTP_HOST="127.0.0.1", ORDERS_HTTP_PORT=str(port),
               ORDERS_JOURNAL_DIR=f"{work}/journal", ORDERS_AUDIT_DIR=f"{work}/audit",
               ORDERS_PERSISTENCE_SPOOL_DIR=f"{work}/spool")
    if mode == "memory":
        env.update(ORDERS_JOURNAL_SYNC="none", ORDERS_DB_URL="")
    else:
        env.setdefault("ORDERS_DB_URL", f"jdbc:postgresql://127.0.0.1:5432/{db}")
    return env


def wait_http(url, proc, path="/ready", timeout=180):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the process exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url + path, timeout=2) as r:
                if r.status == 200:
                    return
        except Exception:
            pass
        time.sleep(0.3)
    raise SystemExit(f"{url}{path} did not answer 200 in {timeout} s")


def stop(proc):
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def threads(pid):
    """name -> [cpu_ticks, context_switches, kernel_ticks] for every thread of pid."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                stat = f.read()
            with open(f"/proc/{pid}/task/{tid}/status") as f:
                status = f.read()
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        cpu = int(fields[11]) + int(fields[12])
        switches = sum(int(m) for m in re.findall(r"ctxt_switches:\s+(\d+)", status))
        name = re.sub(r"\d+$", "N", name)
        acc = out.setdefault(name, [0, 0, 0])
        acc[0] += cpu
        acc[1] += switches
        acc[2] += int(fields[12])
    return out
