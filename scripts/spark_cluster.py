"""A Spark standalone cluster on loopback, a worker killed mid-job (run by scripts/test-spark-cluster).

Starts a master and two workers (PySpark's own `spark-class`, one core each, every process on
127.0.0.1, ports chosen free), then runs one job that sends every photo of a folder through
`vision-tasks classify --files-from -` and `vision-tasks embed --files-from -` with `RDD.pipe`:
  1. with two workers, timed;
  then `train`'s features: each partition's photos go through `vision-tasks train` with one
  shared `--cache` (which keeps every photo's features), and `train` on the driver reads them
  all from it: its model.tflite must be byte for byte the one a local `train --no-cache` writes;
  2. the job again, SIGKILLing the second worker's whole process group (worker, executor, Python
     workers, vision-tasks) once a quarter of the tasks are done: the lost tasks run again on
     the other worker;
  3. with the one worker left, timed (classify only with --one-worker-classify-only).
Each run must give every photo exactly once per task and records equal to a local run of the
same commands (parsed JSON compared exactly: the same binary and model on the same bytes, one
thread per process, gives the same floats, so no tolerance is needed).

usage: spark_cluster.py VISION_TASKS CLASSIFIER EMBEDDER FOLDER [--partitions N] [--one-worker-classify-only]
Exit status 0 when every check passed, 1 otherwise.
"""

import argparse
import json
import os
import random
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pyspark
from pyspark import SparkConf, SparkContext

SPARK_HOME = Path(pyspark.__file__).parent
IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png", ".webp")
# Upper bounds, so that a stuck cluster fails the run instead of hanging CI.
START_TIMEOUT = 90
JOB_TIMEOUT = 600


def free_port():
    """A port free on 127.0.0.1 now (Spark's standalone daemons take a port number, not 0)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Cluster:
    """A master and workers, each a process group of its own, logs under `folder`."""

    def __init__(self, folder):
        self.folder = folder
        self.processes = []
        self.environment = dict(
            os.environ, SPARK_HOME=str(SPARK_HOME), SPARK_LOCAL_IP="127.0.0.1", SPARK_LOG_DIR=str(folder),
            PYSPARK_PYTHON=sys.executable, PYTHONDONTWRITEBYTECODE="1",
            # Standalone daemons: small heaps; a dead worker is dropped by the master after 10 s
            # (set for both: a worker sends its heartbeat every quarter of its own timeout).
            SPARK_DAEMON_MEMORY="256m", SPARK_DAEMON_JAVA_OPTS="-Dspark.worker.timeout=10")

    def start(self, name, main_class, *arguments):
        log = open(self.folder / f"{name}.log", "w")
        process = subprocess.Popen(
            [str(SPARK_HOME / "bin" / "spark-class"), main_class, *arguments], env=self.environment,
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        self.processes.append(process)
        return process

    def wait_for_log(self, name, text):
        """Waits (bounded) until the daemon's log says `text`; exits when it does not in time."""
        deadline = time.monotonic() + START_TIMEOUT
        log = self.folder / f"{name}.log"
        while time.monotonic() < deadline:
            if text in log.read_text(errors="replace"):
                return
            time.sleep(0.2)  # polling a log file: there is no event to wait on
        sys.exit(f"{name} did not say '{text}' within {START_TIMEOUT} s:\n{log.read_text(errors='replace')[-3000:]}")

    def kill(self, process):
        """SIGKILL to the process group: the daemon and everything it started, as a machine that dies."""
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait(timeout=30)

    def stop(self):
        for process in self.processes:
            self.kill(process)


def image_paths(folder):
    found = [os.path.join(root, name) for root, _, names in os.walk(folder) for name in names
             if name.lower().endswith(IMAGE_EXTENSIONS)]
    return sorted(found)


def local_records(command, paths, folder):
    """The same command without Spark: --files-from a list, both cores."""
    listing = folder / f"paths-{len(paths)}.txt"
    listing.write_text("".join(path + "\n" for path in paths))
    began = time.perf_counter()
    run = subprocess.run(command + ["--files-from", str(listing), "--jobs", "2"], capture_output=True, text=True,
                         timeout=JOB_TIMEOUT, check=True)
    return [json.loads(line) for line in run.stdout.splitlines()], time.perf_counter() - began


def check(label, lines, reference, paths):
    """Every photo exactly once, each record equal to the local run's. Returns a list of problems."""
    records = [json.loads(line) for line in lines]
    counts = {}
    for record in records:
        counts[record["image"]] = counts.get(record["image"], 0) + 1
    problems = []
    missing = [path for path in paths if path not in counts]
    twice = [path for path, count in counts.items() if count != 1]
    if missing or twice or len(records) != len(paths):
        problems.append(f"{label}: {len(records)} records for {len(paths)} photos; missing {missing[:3]}, "
                        f"more than once {twice[:3]}")
    expected = {record["image"]: record for record in reference}
    differing = [record["image"] for record in records if record != expected.get(record["image"])]
    if differing:
        problems.append(f"{label}: {len(differing)} records differ from the local run, e.g. {differing[:3]}")
    errors = [record["image"] for record in records if "error" in record]
    if errors:
        problems.append(f"{label}: {len(errors)} error records, e.g. {errors[:3]}")
    return problems


class KillWhenQuarterDone(threading.Thread):
    """Polls the job's progress and SIGKILLs a worker once a quarter of its tasks are done."""

    def __init__(self, context, cluster, victim):
        super().__init__(daemon=True)
        self.context, self.cluster, self.victim = context, cluster, victim
        self.done = threading.Event()
        self.killed_at = None

    def run(self):
        tracker = self.context.statusTracker()
        while not self.done.is_set():
            stages = [tracker.getStageInfo(stage) for stage in tracker.getActiveStageIds()]
            finished = sum(stage.numCompletedTasks for stage in stages if stage)
            total = sum(stage.numTasks for stage in stages if stage)
            if total and finished * 4 >= total:
                self.cluster.kill(self.victim)
                self.killed_at = (finished, total)
                return
            self.done.wait(0.1)


def run_job(context, paths, commands, partitions):
    """Both pipes in one job (their tasks interleave); the lines of each, and the wall time."""
    rdd = context.parallelize(paths, partitions)
    piped = [rdd.pipe(shlex.join(command + ["--files-from", "-", "--jobs", "1"]), checkCode=True)
             .map(lambda line, index=index: (index, line)) for index, command in enumerate(commands)]
    began = time.perf_counter()
    tagged = context.union(piped).collect()
    wall = time.perf_counter() - began
    return [[line for index, line in tagged if index == which] for which in range(len(commands))], wall


def train_features(paths, tool, base, cache):
    """One partition's share of `train`'s features: its photos linked into class folders (the
    class is the photo's folder), then `train` over them with the shared feature cache, which
    computes and keeps every photo's features (the head it fits in one epoch is thrown away)."""
    paths = list(paths)
    with tempfile.TemporaryDirectory(prefix="features-") as work:
        for index, path in enumerate(paths):
            folder = Path(work, "data", Path(path).parent.name)
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{index}-{Path(path).name}").symlink_to(path)
        run = subprocess.run([tool, "train", str(Path(work, "data")), "--base", base, "--output", str(Path(work, "out")),
                              "--cache", cache, "--epochs", "1", "--jobs", "1", "--no-progress"],
                             capture_output=True, text=True, timeout=JOB_TIMEOUT, check=False)
    if run.returncode != 0:
        raise RuntimeError(f"train over {len(paths)} photos failed ({run.returncode}): {run.stderr[-2000:]}")
    return [len(paths)]


def train(tool, base, dataset, output, cache_options):
    """`train` on the dataset's train/ with validation/, at most 100 L-BFGS iterations (equal
    features give an equal model at any count; fewer keep CI short); its summary (JSON) and time."""
    began = time.perf_counter()
    run = subprocess.run([tool, "train", str(Path(dataset, "train")), "--validation", str(Path(dataset, "validation")),
                          "--base", base, "--output", str(output), "--name", "clothes", "--epochs", "100", "--format", "json",
                          "--no-progress"]
                         + cache_options,
                         capture_output=True, text=True, timeout=JOB_TIMEOUT, check=True)
    return json.loads(run.stdout), time.perf_counter() - began


def cluster_features_train(context, tool, base, dataset, paths, folder, partitions):
    """Featurizes for `train` on the cluster into a shared feature cache, then trains from it on
    the driver; the model must equal one trained locally with no cache. Returns problems."""
    cache = folder / "features"
    shuffled = list(paths)
    random.Random(0).shuffle(shuffled)  # every class in every partition
    began = time.perf_counter()
    counted = sum(context.parallelize(shuffled, partitions)
                  .mapPartitions(lambda part: train_features(part, tool, base, str(cache))).collect())
    featurized = time.perf_counter() - began
    from_cache, cached_seconds = train(tool, base, dataset, folder / "model-cluster", ["--cache", str(cache)])
    local, local_seconds = train(tool, base, dataset, folder / "model-local", ["--no-cache"])
    same = (folder / "model-cluster" / "model.tflite").read_bytes() == (folder / "model-local" / "model.tflite").read_bytes()
    print(f"train's features of {counted} photos computed on the cluster into a shared --cache in {featurized:.1f} s; "
          f"train from them {cached_seconds:.1f} s, train computing them itself {local_seconds:.1f} s; "
          f"model.tflite identical: {same}; validation accuracy {from_cache.get('validationAccuracy')}")
    return [] if same and counted == len(paths) else [f"the cluster-featurized model differs from the local one "
                                                     f"({counted} photos featurized of {len(paths)})"]


def main():
    # SIGTERM (the wrapper's timeout) exits through the cleanup below, as an exception would.
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(128 + number))
    parser = argparse.ArgumentParser()
    parser.add_argument("tool")
    parser.add_argument("classifier")
    parser.add_argument("embedder")
    parser.add_argument("folder")
    parser.add_argument("--partitions", type=int, default=12)
    parser.add_argument("--one-worker-classify-only", action="store_true")
    options = parser.parse_args()
    tool, classifier, embedder = (os.path.abspath(path) for path in (options.tool, options.classifier, options.embedder))
    paths = image_paths(os.path.abspath(options.folder))
    commands = [[tool, "classify", "--model", classifier, "--max-results", "3"],
                [tool, "embed", "--model", embedder]]
    names = ["classify", "embed"]

    folder = Path(tempfile.mkdtemp(prefix="spark-cluster-"))
    # The driver binds loopback too (else Spark picks the machine's first interface address), and
    # every process keeps its scratch files in the run's folder, which is removed at the end.
    os.environ.update(SPARK_LOCAL_IP="127.0.0.1", PYSPARK_PYTHON=sys.executable, SPARK_LOCAL_DIRS=str(folder / "local"))
    cluster = Cluster(folder)
    status = 1
    try:
        status = exercise(cluster, folder, paths, commands, names, options)
        return status
    finally:
        cluster.stop()
        if status == 0:
            shutil.rmtree(folder, ignore_errors=True)
        else:
            print(f"the daemons' logs are in {folder}", file=sys.stderr)


def start_cluster(cluster, folder):
    """The master and two one-core workers, registered; returns the master's URL and the workers."""
    port = free_port()
    master_url = f"spark://127.0.0.1:{port}"
    cluster.start("master", "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port", str(port),
                  "--webui-port", str(free_port()))
    cluster.wait_for_log("master", "I have been elected leader")
    workers = [cluster.start(f"worker{index}", "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1",
                             "--webui-port", str(free_port()), "--cores", "1", "--memory", "1g",
                             "--work-dir", str(folder / f"work{index}"), master_url) for index in (1, 2)]
    for index in (1, 2):
        cluster.wait_for_log(f"worker{index}", "Successfully registered with master")
    return master_url, workers


def spark_context(master_url):
    """A driver on loopback using both workers' cores, one per executor, with both executors up
    (so that the first run measures the job, not the executors' start)."""
    conf = (SparkConf().setMaster(master_url).setAppName("vision-tasks-cluster")
            .set("spark.driver.host", "127.0.0.1").set("spark.driver.bindAddress", "127.0.0.1")
            .set("spark.ui.enabled", "false").set("spark.ui.showConsoleProgress", "false")
            .set("spark.executor.cores", "1").set("spark.cores.max", "2").set("spark.executor.memory", "512m")
            .set("spark.task.maxFailures", "4").set("spark.executorEnv.PYTHONDONTWRITEBYTECODE", "1"))
    context = SparkContext(conf=conf)
    context.setLogLevel("ERROR")
    deadline = time.monotonic() + START_TIMEOUT
    while context._jsc.sc().getExecutorMemoryStatus().size() < 3:
        if time.monotonic() > deadline:
            context.stop()
            sys.exit(f"the two executors did not start within {START_TIMEOUT} s")
        time.sleep(0.2)  # polling the driver's executor list (the driver counts too): no event in Python
    return context


def checked_run(label, context, paths, commands, names, references, partitions):
    """One job; its wall time and the problems of its records."""
    lines, wall = run_job(context, paths, commands, partitions)
    problems = [problem for name, got, reference in zip(names, lines, references)
                for problem in check(f"{label}, {name}", got, reference, paths)]
    return wall, problems


def exercise(cluster, folder, paths, commands, names, options):
    references = []
    for name, command in zip(names, commands):
        records, seconds = local_records(command + (["--format", "jsonl"] if name == "classify" else []), paths, folder)
        references.append(records)
        print(f"local {name} of {len(paths)} photos (--jobs 2): {seconds:.1f} s")
    began = time.perf_counter()
    master_url, workers = start_cluster(cluster, folder)
    print(f"master and 2 workers registered in {time.perf_counter() - began:.1f} s ({master_url}); "
          f"{options.partitions} partitions per task; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    context = spark_context(master_url)
    run = lambda label, commands: checked_run(label, context, paths, commands, names, references, options.partitions)
    try:
        wall, problems = run("2 workers", commands)
        print(f"2 workers: {len(paths)} photos classified and embedded in {wall:.1f} s "
              f"({2 * len(paths) / wall:.1f} images/s over both tasks)")

        problems += cluster_features_train(context, commands[1][0], commands[1][3], options.folder, paths, folder,
                                           options.partitions)

        killer = KillWhenQuarterDone(context, cluster, workers[1])
        killer.start()
        wall, found = run("worker killed", commands)
        killer.done.set()
        killer.join(timeout=30)
        found += [] if killer.killed_at else ["the second worker was not killed during the job"]
        problems += found
        done, total = killer.killed_at or (0, 0)
        print(f"2 workers, worker 2 SIGKILLed after {done} of {total} tasks: completed in {wall:.1f} s, "
              f"every photo once, equal to the local run: {not found}")

        one = commands[:1] if options.one_worker_classify_only else commands
        wall, found = run("1 worker", one)
        problems += found
        print(f"1 worker: {len(paths)} photos {'classified' if len(one) == 1 else 'classified and embedded'} "
              f"in {wall:.1f} s ({len(one) * len(paths) / wall:.1f} images/s)")
    finally:
        context.stop()
    for problem in problems:
        print(f"FAILED: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
