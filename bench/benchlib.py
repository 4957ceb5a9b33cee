"""Helpers the bench scripts share: their arguments, free loopback ports, /metrics, waiting for and stopping a process."""
import atexit, base64, concurrent.futures, os, re, secrets, shutil, signal, socket, subprocess, sys, tempfile, time
import urllib.request


def _service_opts():
    """The JVM flags bin/order-entry starts the service with (the README's run command and the image's entry point),
    for the JAVA the benchmark runs: the heap the default limits need (4 GiB, so that the engine reserves its storage
    at start as it does for users), or ORDER_ENTRY_HEAP."""
    script = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bin", "order-entry")
    out = subprocess.run([script, "--jvm-flags"], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"bin/order-entry --jvm-flags failed: {out.stderr.strip()}")
    return out.stdout.strip()


# The service's JVM flags, which the benchmarks run the service (and its floors) with.
SERVICE_OPTS = _service_opts()


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


def metrics(url, headers=None):
    with urllib.request.urlopen(urllib.request.Request(url + "/metrics", headers=headers or {}), timeout=10) as r:
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
    # every load and subscriber of a bench comes from 127.0.0.1: the per-address bounds, which would cap the fan-out
    # and stalled-subscriber runs at 500 streams, are the whole bounds here (HostileConnectionsIT tests them)
    env.setdefault("ORDERS_HTTP_MAX_CONNECTIONS_PER_ADDRESS", "10000000")
    env.setdefault("ORDERS_WS_MAX_CONNECTIONS_PER_ADDRESS", "1000000")
    env.setdefault("ORDERS_WS_ANONYMOUS_PERCENT", "100")
    if mode == "memory":
        env.update(ORDERS_JOURNAL_SYNC="none", ORDERS_DB_URL="")
    else:
        env.setdefault("ORDERS_DB_URL", f"jdbc:postgresql://127.0.0.1:5432/{db}")
    return env


# Keys a bench run spreads its orders over: 64 x the default 1,000 orders a second of a key, well above the 10-45k
# orders a second the service takes on these two cores, so the keys' limits never bind.
LOAD_KEYS = 64


class Keys:
    """The API keys of one bench invocation, as users run the service (ORDERS_AUTH=keys).

    Created once, with the jar's own `keys create` (two JVMs at a time, about 0.4 s a key), for accounts
    bench-1..COUNT in a keys file of their own that every service the invocation starts reads
    (ORDERS_AUTH_KEYS_FILE), so a run that starts several services pays for them once; the secrets go to a file, one
    a line, that the wrk scripts and FixedRateLoad read (ORDERS_LOAD_KEYS). admin=True adds an admin key, for
    /admin/snapshot. auth="none" makes no key: the services run with ORDERS_AUTH=none and the loads name their
    accounts, for comparing the two. fake=True writes COUNT secrets of the right shape without any keys file, for the
    JSON-only servers, which only parse the order, so that they get the same requests as the service."""

    def __init__(self, auth="keys", count=LOAD_KEYS, jar=None, admin=False, fake=False):
        if auth not in ("keys", "none"):
            raise SystemExit(f"auth must be keys or none, was {auth}")
        self.auth = auth
        self.dir = tempfile.mkdtemp(prefix="bench-keys-")
        atexit.register(shutil.rmtree, self.dir, True)
        self.keys_file = os.path.join(self.dir, "keys")
        self.secrets_file = os.path.join(self.dir, "secrets")
        self.admin = None
        if auth == "none":
            return
        if fake:
            with open(self.secrets_file, "w") as f:
                for _ in range(count):
                    tail = base64.urlsafe_b64encode(secrets.token_bytes(32)).decode().rstrip("=")
                    f.write(f"k{secrets.token_hex(8)}.{tail}\n")
            return
        jar = jar or os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "target",
                                  "order-entry.jar")
        started = time.time()
        accounts = [f"bench-{n}" for n in range(1, count + 1)]
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            created = list(pool.map(lambda a: self._create(jar, a), accounts))
        with open(self.secrets_file, "w") as f:
            f.write("".join(s + "\n" for s in created))
        if admin:
            self.admin = self._create(jar, "bench-admin", "--admin")
        print(f"== {count} API keys{' and an admin key' if admin else ''} created in {self.keys_file}"
              f" ({time.time() - started:.0f} s)", file=sys.stderr)

    def _create(self, jar, account, *flags):
        env = {k: v for k, v in os.environ.items() if not k.startswith("ORDERS_")}
        env["ORDERS_AUTH_KEYS_FILE"] = self.keys_file
        out = subprocess.run([os.environ.get("JAVA", "java"), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar",
                              jar, "keys", "create", "--account", account, *flags], env=env, capture_output=True,
                             text=True)
        if out.returncode != 0:
            raise SystemExit(f"keys create --account {account} failed: {out.stderr}")
        return out.stdout.strip()

    def service(self, env):
        """Sets a service's authentication in env (a dict) and returns it."""
        if self.auth == "none":
            env["ORDERS_AUTH"] = "none"
        else:
            env.update(ORDERS_AUTH="keys", ORDERS_AUTH_KEYS_FILE=self.keys_file)
        return env

    def load(self, env):
        """Sets the keys a load (wrk with loadtest/*.lua, FixedRateLoad) sends in env (a dict) and returns it."""
        env.pop("ORDERS_LOAD_KEYS", None)
        if self.auth == "keys":
            env["ORDERS_LOAD_KEYS"] = self.secrets_file
        return env

    def admin_headers(self):
        """The headers of an operations request (/admin/snapshot): the admin key's, when there is one."""
        return {"Authorization": "Bearer " + self.admin} if self.admin else {}

    def describe(self):
        return "authentication off (ORDERS_AUTH=none)" if self.auth == "none" else \
            f"API keys (ORDERS_AUTH=keys, {sum(1 for _ in open(self.secrets_file))} keys, default rate limits)"


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


def wait_port(port, proc, timeout=60):
    """Waits until something listens on 127.0.0.1:port (for servers without a readiness route)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the process exited with {proc.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), 1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"nothing listens on port {port} after {timeout} s")


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
