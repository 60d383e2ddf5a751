"""Classifies a folder of photos with PySpark in local mode, `vision-tasks` as the worker.

Each partition's paths go through `RDD.pipe` to one `vision-tasks classify --files-from -`
process, which prints one JSON line per image (an error line for a file it cannot read, and
exit status 0, so Spark does not fail the partition). The script then checks that the records
equal those of a local run of the same command over the same paths, and prints a summary.

Usage: classify_with_spark.py VISION_TASKS MODEL FOLDER [PARTITIONS]
Exit status: 0 when the results match, 1 when they differ.
"""
import json
import os
import shlex
import subprocess
import sys

from pyspark import SparkConf, SparkContext

IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png", ".webp")


def image_paths(folder):
    """The photos under `folder` (as the tool's folder walk finds them), sorted, plus a path that
    does not exist, to show an error line travelling through Spark."""
    found = [os.path.join(root, name) for root, _, names in os.walk(folder) for name in names
             if name.lower().endswith(IMAGE_EXTENSIONS)]
    return sorted(found) + [os.path.join(folder, "missing-on-purpose.jpg")]


def records(lines):
    """The JSON records by image path."""
    result = {}
    for line in lines:
        record = json.loads(line)
        result[record["image"]] = record
    return result


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    tool, model, folder = (os.path.abspath(argument) for argument in sys.argv[1:4])
    partitions = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    paths = image_paths(folder)
    classify = [tool, "classify", "--model", model, "--max-results", "3"]

    context = SparkContext(conf=SparkConf().setMaster(f"local[{partitions}]").setAppName("vision-tasks-example"))
    context.setLogLevel("ERROR")
    try:
        # One worker process per partition; checkCode fails the job if a worker exits non-zero.
        worker = shlex.join(classify + ["--files-from", "-"])
        spark_lines = context.parallelize(paths, partitions).pipe(worker, checkCode=True).collect()
    finally:
        context.stop()

    local = subprocess.run(classify + ["--format", "jsonl"] + paths, capture_output=True, text=True, check=False)
    spark_records, local_records = records(spark_lines), records(local.stdout.splitlines())

    failed = sorted(image for image, record in spark_records.items() if "error" in record)
    print(f"{len(spark_lines)} lines from {partitions} Spark partitions for {len(paths)} paths; "
          f"{len(failed)} error line(s): {', '.join(os.path.basename(path) for path in failed)}")
    for image in sorted(spark_records)[:3]:
        record = spark_records[image]
        if "classifications" in record:
            best = record["classifications"][0]["categories"][0]
            print(f"  {os.path.basename(image)}: {best['categoryName']} {best['score']:.3f}")
    if len(spark_lines) != len(paths) or spark_records != local_records:
        missing = sorted(set(local_records) ^ set(spark_records))
        differing = sorted(image for image in set(local_records) & set(spark_records)
                           if local_records[image] != spark_records[image])
        print(f"MISMATCH: {len(spark_lines)} lines for {len(paths)} paths; only in one run: {missing}; "
              f"different records: {differing}", file=sys.stderr)
        sys.exit(1)
    print("Spark results equal the local run.")


if __name__ == "__main__":
    main()
