"""Three `vision-tasks serve` replicas behind HAProxy, under faults (run by scripts/test-serve-replicas).

Everything on 127.0.0.1, ports chosen free, every process killed on exit. A model source (a folder
indexed by `vision-tasks models index`, served by `python3 -m http.server`) publishes
mobilenet version 1; `models download` installs it in a cache; three replicas serve it with
`serve --remote mobilenet`. HAProxy balances them with health checks on /v2/health/ready and
retries requests that got no answer on another replica (`retry-on`, `option redispatch`; not 503s). OIP infer is
idempotent here (the answer depends only on the image and the model; the server keeps no state
per request), so a request that got no answer may be sent again.

CLIENTS clients (keep-alive connections to HAProxy) send REQUESTS binary OIP infer requests for
burger.jpg: a third with all replicas up, a third while replica 1 is SIGKILLed and replica 2
SIGTERMed and both are started again, a third after they rejoined; every answer must be 200
with cheeseburger first. Then the rolling update: version 2 (another MobileNet) is published and
downloaded, and each replica in turn is SIGTERMed (it drains), started again on the new version
and waited for until HAProxy has it up, while the clients keep sending; GET /v2/models/mobilenet
must then say version 2 on each replica; each replica stays down RESTART_DELAY s (a slow
restart), and SIGTERM drains it first (`--drain-seconds 1`: readiness fails, requests are still
served). Last, an overload: the replicas restarted with a queue of 4 and 64 clients; their 503s
must reach the clients unretried. Prints p50/p99/rps per phase, failed requests, the
amplification (requests the replicas received per request sent: retries), start time to ready
and resident memory per replica.

usage: serve_replicas.py VISION_TASKS TESTDATA [--requests 3000] [--clients 16]
Exit status 0 when no request failed and every check passed, 1 otherwise.
"""

import argparse
import csv
import http.client
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

MODEL = "mobilenet"
READY_TIMEOUT = 60
PHASE_TIMEOUT = 300
# The replicas' own limits: one classifier each (3 replicas on 2 cores), a queue deep enough
# that HAProxy's connections never see 503 in normal running.
# On SIGTERM a replica fails its readiness for a second (5 health checks) before it closes its
# listener, so HAProxy takes it out while it still answers.
REPLICA_OPTIONS = ["--workers", "1", "--max-requests", "256", "--request-timeout", "30", "--drain-seconds", "1"]
# The overload phase: a queue of 4 per replica against OVERLOAD_CLIENTS clients, so that the
# replicas answer 503 (back-pressure), which HAProxy must pass on, not retry.
OVERLOAD_OPTIONS = ["--max-requests", "4"]
OVERLOAD_CLIENTS = 64
# A slow restart: how long a replica of the rolling update stays down.
RESTART_DELAY = 3


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def get(port, path, timeout=5):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def wait_until(condition, timeout, what):
    """Polls `condition` (a health probe, HAProxy's view) every 50 ms, at most `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise RuntimeError(f"timed out after {timeout} s waiting for {what}")


def resident_mib(pid, field="VmRSS"):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Replica:
    """One `serve --remote` process on a fixed port (HAProxy's server line names it)."""

    def __init__(self, index, binary, cache, folder):
        self.index, self.binary, self.cache, self.folder = index, binary, cache, folder
        self.port = free_port()
        self.process = None
        self.starts = []
        self.options = REPLICA_OPTIONS

    def start(self):
        began = time.perf_counter()
        log = open(self.folder / f"replica{self.index}.log", "a")
        self.process = subprocess.Popen(
            [self.binary, "serve", "--port", str(self.port), "--remote", MODEL, "--cache", str(self.cache)]
            + self.options, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        log.close()

        def ready():
            if self.process.poll() is not None:
                raise RuntimeError(f"replica {self.index} exited with {self.process.returncode}")
            try:
                return get(self.port, "/v2/health/ready", timeout=1)[0] == 200
            except OSError:
                return False
        wait_until(ready, READY_TIMEOUT, f"replica {self.index} to be ready")
        self.starts.append(time.perf_counter() - began)

    def signal(self, number):
        self.process.send_signal(number)

    def wait(self):
        return self.process.wait(timeout=60)

    def version(self):
        status, body = get(self.port, f"/v2/models/{MODEL}")
        return json.loads(body)["versions"] if status == 200 else None

    def kill(self):
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=30)


class Balancer:
    """HAProxy in the foreground, with an admin socket to read each server's state."""

    def __init__(self, folder, replicas):
        self.port = free_port()
        self.socket = folder / "haproxy.sock"
        config = folder / "haproxy.cfg"
        servers = "\n".join(f"  server r{r.index} 127.0.0.1:{r.port}" for r in replicas)
        config.write_text(f"""global
  maxconn 512
  # Requests are retried from a copy in one buffer: it must hold a request (burger.jpg is 30 kB).
  tune.bufsize 131072
  stats socket {self.socket} mode 600 level admin
  log stdout format raw local0
defaults
  mode http
  log global
  option httplog
  timeout connect 1s
  timeout client 60s
  timeout server 30s
  timeout check 1s
  # A request that got no answer (connection refused or reset, empty or broken answer, no answer
  # in time) is sent again, each retry to another replica; OIP infer is idempotent here. A 503 is
  # not retried: it is a replica's back-pressure, and retrying it multiplies the load it refuses.
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response junk-response response-timeout
  # The whole body is read before a replica is chosen, so that the copy a retry sends is complete.
  option http-buffer-request
frontend infer
  bind 127.0.0.1:{self.port}
  default_backend replicas
backend replicas
  balance leastconn
  option httpchk GET /v2/health/ready
  http-check expect status 200
  default-server check inter 200ms fall 2 rise 2
{servers}
""")
        self.log = open(folder / "haproxy.log", "w")
        self.process = subprocess.Popen(["haproxy", "-db", "-f", str(config)], stdin=subprocess.DEVNULL,
                                        stdout=self.log, stderr=subprocess.STDOUT)

    def stats(self):
        """HAProxy's `show stat` rows of the backend's servers, by server name."""
        with socket.socket(socket.AF_UNIX) as admin:
            admin.settimeout(5)
            admin.connect(str(self.socket))
            admin.sendall(b"show stat\n")
            text = b""
            while chunk := admin.recv(65536):
                text += chunk
        rows = csv.DictReader(text.decode().lstrip("# ").splitlines())
        return {row["svname"]: row for row in rows if row["pxname"] == "replicas" and row["svname"].startswith("r")}

    def received(self):
        """The requests HAProxy has sent to the replicas, each retry counted (the servers'
        sessions, `stot`: `req_tot` counts a retried request once)."""
        return sum(int(row["stot"] or 0) for row in self.stats().values())

    def wait_up(self, name):
        def up():
            try:
                return self.stats()[name]["status"] == "UP"
            except OSError:
                return False
        wait_until(up, READY_TIMEOUT, f"HAProxy to mark {name} up")

    def stop(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=30)


def infer_request(image):
    """A binary OIP infer request: the JSON header, then the BYTES element (length, bytes)."""
    header = json.dumps({
        "inputs": [{"name": "image", "datatype": "BYTES", "shape": [1],
                    "parameters": {"binary_data_size": len(image) + 4}}],
        "outputs": [{"name": "classifications", "parameters": {"classification": 1}}]}).encode()
    return header + len(image).to_bytes(4, "little") + image, {
        "Inference-Header-Content-Length": str(len(header)), "Content-Type": "application/octet-stream"}


class Load:
    """CLIENTS threads sending infer requests through the balancer until `stop` is set or the
    shared budget is spent; records latency, failures and the model version of each answer."""

    def __init__(self, port, body, headers, clients):
        self.port, self.body, self.headers, self.clients = port, body, headers, clients
        self.lock = threading.Lock()
        # In the overload phase a 503 with Retry-After is the answer expected, not a failure.
        self.back_pressure_allowed = False

    def run(self, budget=None, stop=None, during=None, received=None):
        """Sends until the budget is spent (or `during` returns); `received` counts what the
        replicas got, for the amplification (their requests per client request)."""
        self.latencies, self.failures, self.versions, self.left = [], [], {}, budget
        self.refused = 0
        self.received, before = None, received() if received else None
        self.done = 0
        stop = stop or threading.Event()
        threads = [threading.Thread(target=self.client, args=(stop,)) for _ in range(self.clients)]
        began = time.perf_counter()
        for thread in threads:
            thread.start()
        try:
            if during:
                during(self)
        finally:
            if budget is None:
                stop.set()
            for thread in threads:
                thread.join(timeout=PHASE_TIMEOUT)
        if received:
            self.received = received() - before
        return time.perf_counter() - began

    def take(self):
        with self.lock:
            if self.left is not None:
                if self.left == 0:
                    return False
                self.left -= 1
            return True

    def client(self, stop):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        while not stop.is_set() and self.take():
            began = time.perf_counter()
            try:
                connection.request("POST", f"/v2/models/{MODEL}/infer", body=self.body, headers=self.headers)
                response = connection.getresponse()
                body = response.read()
                answer = json.loads(body) if response.status == 200 else None
                ok = answer is not None and answer["outputs"][0]["data"][0].endswith(":934:cheeseburger")
                failure = None if ok else f"HTTP {response.status}: {body[:200]!r}"
                refused = response.status == 503 and response.getheader("Retry-After") is not None
            except (OSError, http.client.HTTPException, ValueError, KeyError) as error:
                failure, answer, refused = f"{type(error).__name__}: {error}", None, False
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
            elapsed = time.perf_counter() - began
            with self.lock:
                self.done += 1
                if refused and self.back_pressure_allowed:
                    self.refused += 1
                elif failure:
                    self.failures.append(failure)
                else:
                    self.latencies.append(elapsed)
                    version = answer.get("model_version")
                    self.versions[version] = self.versions.get(version, 0) + 1
        connection.close()

    def wait_done(self, count):
        wait_until(lambda: self.done >= count, PHASE_TIMEOUT, f"{count} requests done")

    def report(self, label, wall):
        latencies = sorted(self.latencies)
        p50 = statistics.median(latencies) * 1000 if latencies else float("nan")
        p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000 if latencies else float("nan")
        amplification = f", replicas received {self.received / self.done:.2f}x" if self.received is not None else ""
        refused = f", refused (503) {self.refused}" if self.back_pressure_allowed else ""
        print(f"{label}: {self.done} requests in {wall:.1f} s, {self.done / wall:.1f} requests/s, "
              f"p50 {p50:.1f} ms, p99 {p99:.1f} ms, failed {len(self.failures)}{refused}{amplification}; "
              f"versions answered {self.versions}")
        for failure in self.failures[:5]:
            print(f"  failure: {failure}")
        return len(self.failures)


def main():
    # SIGTERM (the wrapper's timeout) exits through the cleanup below, as an exception would.
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(128 + number))
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("testdata")
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--clients", type=int, default=16)
    options = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="serve-replicas-"))
    cleanups = []
    status = 1
    try:
        status = exercise(options, folder, cleanups)
        return status
    finally:
        for cleanup in reversed(cleanups):
            cleanup()
        if status == 0:
            shutil.rmtree(folder, ignore_errors=True)
        else:
            print(f"the logs are in {folder}", file=sys.stderr)


class Service:
    """The model source, the three replicas and the balancer, started; each registers its cleanup."""

    def __init__(self, options, folder, cleanups):
        self.binary, self.data = os.path.abspath(options.binary), Path(options.testdata)
        self.site, self.cache = folder / "site", folder / "cache"
        self.site.mkdir()
        source = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "--bind", "127.0.0.1", str(free_port()),
                                   "-d", str(self.site)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        cleanups.append(lambda: (source.kill(), source.wait(timeout=30)))
        # "Serving HTTP on 127.0.0.1 port N ...": printed once bound.
        self.source_url = f"http://127.0.0.1:{int(source.stdout.readline().split(' port ')[1].split()[0])}/"
        version, said = self.publish("mobilenet_v1_0.25_224_quant.tflite")
        print(f"model source {self.source_url}: published {MODEL} {version}; {said}")
        self.replicas = [Replica(index, self.binary, self.cache, folder) for index in (1, 2, 3)]
        cleanups.extend(replica.kill for replica in self.replicas)
        for replica in self.replicas:
            replica.start()
        self.balancer = Balancer(folder, self.replicas)
        cleanups.append(self.balancer.stop)
        for replica in self.replicas:
            self.balancer.wait_up(f"r{replica.index}")
        print(f"3 replicas ready in {', '.join(f'{r.starts[0]:.2f}' for r in self.replicas)} s (start to "
              f"/v2/health/ready 200); HAProxy on 127.0.0.1:{self.balancer.port}; "
              f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")

    def publish(self, model):
        """Puts the test data's `model` in the model source as mobilenet.tflite, indexes it and
        downloads it into the replicas' cache; the index's version and what the download said."""
        shutil.copyfile(self.data / "models" / model, self.site / f"{MODEL}.tflite")
        index = subprocess.run([self.binary, "models", "index", str(self.site)], capture_output=True, text=True,
                               timeout=120, check=True)
        download = subprocess.run([self.binary, "models", "download", MODEL, "--source", self.source_url, "--cache",
                                   str(self.cache)], capture_output=True, text=True, timeout=120, check=True)
        return index.stdout.split("\t")[1], download.stderr.strip()

    def restart(self, replica):
        """Starts a replica that exited again and waits until HAProxy has it up."""
        replica.start()
        self.balancer.wait_up(f"r{replica.index}")


def fault_phases(service, load, requests):
    """Before, during (r1 SIGKILLed, r2 SIGTERMed, both restarted) and after; the problems."""
    third = requests // 3
    failed = load.report("before (3 replicas)", load.run(budget=third, received=service.balancer.received))
    memory = [resident_mib(r.process.pid) for r in service.replicas]
    print(f"resident memory per replica after {third} requests: {', '.join(f'{m:.1f}' for m in memory)} MiB")
    r1, r2 = service.replicas[:2]
    events, statuses = [], []

    def faults(load):
        load.wait_done(third // 10)
        r1.signal(signal.SIGKILL)
        events.append(f"r1 SIGKILLed at {load.done}")
        load.wait_done(third * 3 // 10)
        r2.signal(signal.SIGTERM)
        statuses.append(r2.wait())
        events.append(f"r2 SIGTERMed at {load.done}, exit status {statuses[0]}")
        r1.wait()
        service.restart(r1)
        service.restart(r2)
        events.append(f"r1 and r2 started again and up in HAProxy at {load.done}")

    failed += load.report("during (r1 SIGKILL, r2 SIGTERM, both restarted)", load.run(budget=third, during=faults, received=service.balancer.received))
    print(f"  events: {'; '.join(events)}")
    before = {name: int(row["stot"]) for name, row in service.balancer.stats().items()}
    failed += load.report("after (3 replicas)", load.run(budget=requests - 2 * third, received=service.balancer.received))
    served = {name: int(row["stot"]) - before[name] for name, row in service.balancer.stats().items()}
    print(f"  requests per replica after the restarts: {served}")
    return ([f"{name} served no request after rejoining" for name, count in served.items() if count == 0]
            + [f"r2 exited with {status} on SIGTERM" for status in statuses if status != 0]
            + ([f"{failed} requests failed with replicas killed"] if failed else []))


def rolling_update(service, load):
    """Version 2 published, then each replica SIGTERMed and started on it under load; the problems."""
    version, said = service.publish("mobilenet_v1_0.25_224_1_metadata_1.tflite")
    print(f"published {MODEL} {version} (the float MobileNet); {said}")
    seen = []

    def rolling(load):
        for replica in service.replicas:
            replica.signal(signal.SIGTERM)
            exit_status = replica.wait()
            time.sleep(RESTART_DELAY)  # a slow restart: the replica stays down meanwhile
            service.restart(replica)
            seen.append((replica.index, exit_status, replica.version()))

    failed = load.report(
        f"rolling update (each replica SIGTERMed, restarted {RESTART_DELAY} s later on version 2)",
        load.run(during=rolling, received=service.balancer.received))
    print(f"  replicas (index, exit status on SIGTERM, versions now): {seen}")
    return ([f"replica {index} serves {found}, not ['2']" for index, _, found in seen if found != ["2"]]
            + [f"replica {index} exited with {status} on SIGTERM" for index, status, _ in seen if status != 0]
            + ([f"{failed} requests failed in the rolling update"] if failed else []))


def overload(service, load, requests):
    """The replicas restarted with a queue of 4 and OVERLOAD_CLIENTS clients: their 503s reach
    the clients, and HAProxy sends each request once (no retry storm); the problems."""
    for replica in service.replicas:
        replica.options = REPLICA_OPTIONS + OVERLOAD_OPTIONS
        replica.signal(signal.SIGTERM)
        replica.wait()
        service.restart(replica)
    crowd = Load(load.port, load.body, load.headers, OVERLOAD_CLIENTS)
    crowd.back_pressure_allowed = True
    failed = crowd.report(
        f"overload ({OVERLOAD_CLIENTS} clients, replicas at --max-requests 4)",
        crowd.run(budget=requests, received=service.balancer.received))
    amplification = crowd.received / crowd.done
    return ([f"{failed} requests failed otherwise than with a 503 in the overload"] if failed else []) + (
        [f"the replicas received {amplification:.2f}x the requests sent in the overload (retried 503s)"]
        if amplification > 1.05 else [])


def exercise(options, folder, cleanups):
    service = Service(options, folder, cleanups)
    body, headers = infer_request((service.data / "images" / "burger.jpg").read_bytes())
    load = Load(service.balancer.port, body, headers, options.clients)
    problems = (fault_phases(service, load, options.requests) + rolling_update(service, load)
                + overload(service, load, options.requests // 3))
    starts = [start for replica in service.replicas for start in replica.starts]
    peak = [resident_mib(r.process.pid, "VmHWM") for r in service.replicas]
    print(f"start to ready over {len(starts)} starts: median {statistics.median(starts):.2f} s, max {max(starts):.2f} s; "
          f"peak resident memory per replica (version 2): {', '.join(f'{m:.1f}' for m in peak)} MiB")
    for problem in problems:
        print(f"FAILED: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
