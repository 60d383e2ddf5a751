"""Ours vs MediaPipe 1.2.3 on this machine, in one run, as ratios (MediaPipe's time over ours:
above 1 means vision-tasks is faster), and the floors of a small photo: JPEG decoding and LiteRT's
invoke, ours beside Pillow's, OpenCV's and LiteRT's own Python Interpreter's. Run through
scripts/compare-peers, which makes the virtual environment (mediapipe brings OpenCV) and builds the
tool.

Usage: compare_peers.py VISION_TASKS TESTDATA WORK_DIR
  WORK_DIR keeps the generated inputs between runs: 300 photos of 640x480 and 60 of 4032x3024
  (JPEG quality 90, resized from the shared photos as ../shared/tools/make_perf_photos.py does)
  and a 30 s 1280x720 H.264 clip (FFmpeg's testsrc2 pattern).
"""
import glob
import io
import json
import os
import statistics
import subprocess
import sys
import time

import cv2
import mediapipe as mp
import numpy as np
from ai_edge_litert.interpreter import Interpreter
from mediapipe.tasks import python as mpt
from mediapipe.tasks.python import vision
from PIL import Image

tool, testdata, work = sys.argv[1:4]
model = os.path.join(testdata, "models", "mobilenet_v1_0.25_224_quant.tflite")
photo = os.path.join(testdata, "images", "burger.jpg")


def make_inputs():
    sources = sorted(glob.glob(os.path.join(testdata, "images", "*.jpg")))
    for name, count, size in (("small", 300, (640, 480)), ("big", 60, (4032, 3024))):
        os.makedirs(os.path.join(work, name), exist_ok=True)
        for index in range(count):
            path = os.path.join(work, name, f"p{index:03d}.jpg")
            if not os.path.exists(path):
                Image.open(sources[index % len(sources)]).convert("RGB").resize(size, Image.BICUBIC).save(path, quality=90)
    clip = os.path.join(work, "clip720p.mp4")
    if not os.path.exists(clip):
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30", "-t", "30",
                        "-c:v", "libx264", "-pix_fmt", "yuv420p", clip + ".part.mp4"], check=True)
        os.rename(clip + ".part.mp4", clip)
    return clip


def timed(function):
    start = time.perf_counter()
    result = function()
    return time.perf_counter() - start, result


def median_ms(function, runs=200):
    function()
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def ours(*arguments):
    """Runs vision-tasks, returning the elapsed seconds and stdout."""
    return timed(lambda: subprocess.run([tool, *arguments], capture_output=True, text=True, check=False).stdout)


def median_of(runs, function):
    """The median of `runs` values of `function()`: one run of a folder or clip moves by several
    percent with what else the machine does, for either program."""
    return statistics.median(function() for _ in range(runs))


def ours_seconds(*arguments, runs=3):
    return median_of(runs, lambda: ours(*arguments)[0])


def mediapipe_classifier(mode=vision.RunningMode.IMAGE):
    options = vision.ImageClassifierOptions(base_options=mpt.BaseOptions(model_asset_path=model), max_results=5,
                                            running_mode=mode)
    return vision.ImageClassifier.create_from_options(options)


def mediapipe_folder(folder):
    classifier = mediapipe_classifier()
    files = sorted(os.path.join(folder, name) for name in os.listdir(folder))
    seconds, _ = timed(lambda: [classifier.classify(mp.Image.create_from_file(path)) for path in files])
    return seconds


def mediapipe_video(clip):
    classifier = mediapipe_classifier(vision.RunningMode.VIDEO)
    capture = cv2.VideoCapture(clip)
    frames = 0
    start = time.perf_counter()
    while True:
        ok, bgr = capture.read()
        if not ok:
            break
        image = mp.Image(image_format=mp.ImageFormat.SRGB, data=cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB))
        classifier.classify_for_video(image, int(capture.get(cv2.CAP_PROP_POS_MSEC)))
        frames += 1
    return frames / (time.perf_counter() - start)


def decoding_agreement(folder):
    """Top-1 agreement and the largest score change of --decode fast against exact, over `folder`."""
    runs = {}
    for mode in ("exact", "fast"):
        output = ours("classify", "--model", model, "--format", "jsonl", "--no-progress", "--max-results", "-1",
                      "--decode", mode, folder)[1]
        runs[mode] = {record["image"]: record["classifications"][0]["categories"]
                      for record in map(json.loads, output.splitlines()) if "classifications" in record}
    agree, largest = 0, 0.0
    for image, exact in runs["exact"].items():
        fast = {category["index"]: category["score"] for category in runs["fast"][image]}
        agree += exact[0]["index"] == runs["fast"][image][0]["index"]
        largest = max(largest, max(abs(category["score"] - fast[category["index"]]) for category in exact))
    return f"{agree}/{len(runs['exact'])} same top-1, largest score change {largest:.4f}"


def floors(photo_path):
    """The two steps that take most of a small photo's time, ours beside other programs' on the same
    input: JPEG decoding (ours: decode + classify minus classify in `benchmark`) and LiteRT's invoke
    (ours: `benchmark`'s inference alone; LiteRT's own Python Interpreter, 1 thread, same model)."""
    report = json.loads(ours("benchmark", "--model", model, "--runs", "200", "--cycles", "0", "--threads", "1",
                             "--format", "json", photo_path)[1])
    ours_decode = report["decodeAndClassifyMilliseconds"]["median"] - report["classifyMilliseconds"]["median"]
    data = open(photo_path, "rb").read()
    pillow = median_ms(lambda: Image.open(io.BytesIO(data)).load())
    opencv = median_ms(lambda: cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR))
    interpreter = Interpreter(model_path=model, num_threads=1)
    interpreter.allocate_tensors()
    invoke = median_ms(interpreter.invoke)
    return (f"one 640x480 photo, medians of 200: JPEG decode {ours_decode:.3f} ms (ours, libjpeg-turbo), "
            f"{pillow:.3f} (Pillow), {opencv:.3f} (OpenCV); LiteRT invoke {report['inferenceMilliseconds']['median']:.3f} "
            f"ms (ours), {invoke:.3f} (ai_edge_litert's Python Interpreter)")


def main():
    clip = make_inputs()
    load = os.getloadavg()[0]
    rows = []

    report = json.loads(ours("benchmark", "--model", model, "--runs", "200", "--cycles", "0", "--threads", "1",
                             "--format", "json", photo)[1])
    classifier = mediapipe_classifier()
    image = mp.Image.create_from_file(photo)
    rows.append(("classify, ms per call (burger.jpg, 1 thread)", report["classifyMilliseconds"]["median"],
                 median_ms(lambda: classifier.classify(image)), "ms"))
    rows.append(("decode + classify, ms per call", report["decodeAndClassifyMilliseconds"]["median"],
                 median_ms(lambda: classifier.classify(mp.Image.create_from_file(photo))), "ms"))

    overheads = []
    for path in (model, os.path.join(testdata, "models", "mobilenet_v1_0.25_224_1_metadata_1.tflite")):
        figures = json.loads(ours("benchmark", "--model", path, "--runs", "300", "--cycles", "0", "--threads", "1",
                                  "--format", "json", photo)[1])
        overheads.append(f"{os.path.basename(path)} {figures['classifyOverheadMilliseconds']:.3f} ms "
                         f"(classify {figures['classifyMilliseconds']['median']:.3f}, "
                         f"inference {figures['inferenceMilliseconds']['median']:.3f})")

    common = ["classify", "--model", model, "--format", "jsonl", "--no-progress"]
    small, big = os.path.join(work, "small"), os.path.join(work, "big")
    rows.append(("300 photos 640x480, s", ours_seconds(*common, small), median_of(3, lambda: mediapipe_folder(small)), "s"))
    big_mediapipe = median_of(3, lambda: mediapipe_folder(big))
    rows.append(("60 photos 4032x3024, s (exact)", ours_seconds(*common, big), big_mediapipe, "s"))
    rows.append(("60 photos 4032x3024, s (--decode fast)", ours_seconds(*common, "--decode", "fast", big), big_mediapipe, "s"))

    video = ["classify-video", clip, "--model", model, "--format", "jsonl", "--no-progress"]
    frames = sum(1 for line in ours(*video)[1].splitlines() if line.startswith('{"classifications"'))
    rows.append(("30 s 1280x720 H.264 clip, frames/s", frames / ours_seconds(*video), median_of(3, lambda: mediapipe_video(clip)), "fps"))

    print(f"--decode fast vs exact, shared photos: {decoding_agreement(os.path.join(testdata, 'images'))}; "
          f"60 photos of 4032x3024: {decoding_agreement(big)}")
    print(f"floors: {floors(os.path.join(small, 'p000.jpg'))}")
    print(f"classify overhead above LiteRT's inference (vision-tasks benchmark, 1 thread, medians of 300): "
          f"{'; '.join(overheads)}")
    print(f"cores: {os.cpu_count()}; load average (1 min) at the start: {load:.1f}; "
          f"--jobs default (cores) for folders; model {os.path.basename(model)}; "
          f"folders and clip: medians of 3 runs each")
    print("| measure | vision-tasks | MediaPipe 1.2.3 | ratio (MediaPipe / ours; fps: ours / MediaPipe) |")
    print("|---|---:|---:|---:|")
    for name, mine, theirs, unit in rows:
        ratio = mine / theirs if unit == "fps" else theirs / mine
        print(f"| {name} | {mine:.3f} | {theirs:.3f} | {ratio:.2f}x |")


if __name__ == "__main__":
    main()
