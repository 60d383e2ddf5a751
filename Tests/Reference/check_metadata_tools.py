#!/usr/bin/env python3
"""Checks `vision-tasks inspect` and `vision-tasks metadata write` against the references:
tflite-support 0.4.4's MetadataDisplayer and MediaPipe 1.2.3's ImageClassifier (from PyPI).

1. `inspect --format json` on every shared model agrees with MetadataDisplayer.get_metadata_json()
   on every field both report, lists the same packed files, and says MediaPipe accepts the model
   exactly when MediaPipe's ImageClassifier can be created from it.
2. The bare float model (mobilenet_v1_0.25_224_1_default_1, which MediaPipe refuses) written with
   the labels of mobilenet_v1_0.25_224_1_metadata_1 and mean/std 127.5 is accepted by MediaPipe
   and gives that model's categories and scores, in MediaPipe and in vision-tasks.
3. A model written with every field (texts, per-locale labels, score calibration) is read back
   field for field by the displayer, and MediaPipe uses its display names and calibration.
Both written models go through check 1 too (inspect round trip).

Usage: check_metadata_tools.py VISION_TASKS TESTDATA_DIR
The script runs itself in the virtual environment `scripts/python-env metadata` names (made by
`scripts/bootstrap --tests`; it downloads nothing); it exits 1 on any failed check and prints
"N passed, N failed".
"""
import json, os, shutil, subprocess, sys, tempfile

PYTHON_ENV = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "python-env")
# The ModelMetadata fields inspect reports (the displayer's other fields, such as stats, are not compared).
METADATA_KEYS = {"name", "description", "version", "author", "license", "subgraph_metadata", "min_parser_version"}
IMAGES = ["burger.jpg", "cats_and_dogs.jpg", "sparrow.png", "grace_hopper.jpg"]


def ensure_venv():
    """Re-runs this script with the environment's Python; exits 1 when the environment is missing."""
    found = subprocess.run([PYTHON_ENV, "metadata"], stdout=subprocess.PIPE, text=True)
    if found.returncode != 0:
        sys.exit(1)  # python-env said why on stderr
    python = found.stdout.strip()
    if os.path.realpath(sys.prefix) != os.path.realpath(os.path.dirname(os.path.dirname(python))):
        os.execv(python, [python, *sys.argv])


ensure_venv()
import zipfile  # noqa: E402  (after the venv switch)
from mediapipe.tasks.python import BaseOptions, vision  # noqa: E402
import mediapipe as mp  # noqa: E402
from tflite_support import metadata as tfl_metadata  # noqa: E402

results = {"passed": 0, "failed": 0}


def check(condition, what, detail=""):
    results["passed" if condition else "failed"] += 1
    print(("ok   " if condition else "FAIL ") + what + ("" if condition else f": {detail}"), flush=True)
    return condition


def tool(*arguments):
    run = subprocess.run([TOOL, *arguments], capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"vision-tasks {' '.join(arguments)} exited {run.returncode}: {run.stderr}")
    return run.stdout


def differences(ours, theirs, path="$"):
    """Where `ours` and `theirs` differ on keys both have (floats to float32 precision).
    Process units are matched by options_type (our reader orders them by type)."""
    if isinstance(ours, dict) and isinstance(theirs, dict):
        found = []
        for key in ours.keys() & theirs.keys():
            found += differences(ours[key], theirs[key], f"{path}.{key}")
        return found
    if isinstance(ours, list) and isinstance(theirs, list):
        if path.endswith("process_units"):
            ours = sorted(ours, key=lambda unit: unit.get("options_type", ""))
            theirs = sorted(theirs, key=lambda unit: unit.get("options_type", ""))
        if len(ours) != len(theirs):
            return [f"{path}: {len(ours)} elements, the displayer has {len(theirs)}"]
        return [d for index, (a, b) in enumerate(zip(ours, theirs)) for d in differences(a, b, f"{path}[{index}]")]
    if isinstance(ours, (int, float)) and isinstance(theirs, (int, float)) and not isinstance(ours, bool):
        return [] if abs(ours - theirs) <= 1e-6 * max(1.0, abs(theirs)) else [f"{path}: {ours} != {theirs}"]
    return [] if ours == theirs else [f"{path}: {ours!r} != {theirs!r}"]


def mediapipe_classifier(model, locale=None):
    options = vision.ImageClassifierOptions(base_options=BaseOptions(model_asset_path=model), max_results=5)
    if locale:
        options.display_names_locale = locale
    return vision.ImageClassifier.create_from_options(options)


def mediapipe_top(model, image, locale=None):
    classifier = mediapipe_classifier(model, locale)
    result = classifier.classify(mp.Image.create_from_file(os.path.join(TESTDATA, "images", image)))
    classifier.close()
    return [(c.index, c.score, c.category_name, c.display_name) for c in result.classifications[0].categories]


def product_top(model, image):
    output = json.loads(tool("classify", "--model", model, "--max-results", "5", "--format", "json",
                             os.path.join(TESTDATA, "images", image)))
    return [(c["index"], c["score"], c["categoryName"], c["displayName"]) for c in output[0]["classifications"][0]["categories"]]


def check_inspect(model, name):
    ours = json.loads(tool("inspect", "--format", "json", model))
    try:
        displayer = tfl_metadata.MetadataDisplayer.with_model_file(model)
    except ValueError:  # no metadata
        displayer = None
    if displayer is None:
        check("subgraph_metadata" not in ours and "min_parser_version" not in ours, f"{name}: inspect reports no metadata",
              json.dumps(ours)[:300])
    else:
        theirs = json.loads(displayer.get_metadata_json())
        found = differences(ours, theirs)
        shared = sorted(ours.keys() & theirs.keys())
        missing = sorted((theirs.keys() & METADATA_KEYS) - ours.keys())
        check(not found and not missing, f"{name}: inspect agrees with MetadataDisplayer on {shared}", found or f"missing {missing}")
        packed = [f["name"] for f in ours["packed_associated_files"]]
        check(packed == displayer.get_packed_associated_file_list(), f"{name}: packed files {packed}",
              displayer.get_packed_associated_file_list())
    try:
        mediapipe_classifier(model).close()
        accepted, reason = True, None
    except Exception as error:  # MediaPipe raises RuntimeError/ValueError with its status text
        accepted, reason = False, str(error)
    verdict = ours["mediapipe_image_classifier"]
    check(verdict["accepted"] == accepted, f"{name}: inspect says MediaPipe {'accepts' if accepted else 'refuses'} it",
          f"inspect: {verdict}, MediaPipe: {reason}")
    return ours


def same_results(a, b, tolerance):
    return len(a) == len(b) and all(x[0] == y[0] and x[2] == y[2] and x[3] == y[3] and abs(x[1] - y[1]) <= tolerance
                                    for x, y in zip(a, b))


def check_bare_float_model(work):
    models = os.path.join(TESTDATA, "models")
    reference = os.path.join(models, "mobilenet_v1_0.25_224_1_metadata_1.tflite")
    labels = os.path.join(work, "labels.txt")
    open(labels, "wb").write(zipfile.ZipFile(reference).read("labels.txt"))
    written = os.path.join(work, "mobilenet_float_written.tflite")
    tool("metadata", "write", os.path.join(models, "mobilenet_v1_0.25_224_1_default_1.tflite"), "--output", written,
         "--labels", labels, "--mean", "127.5", "--std", "127.5")
    for image in IMAGES:
        theirs, ours = mediapipe_top(reference, image), mediapipe_top(written, image)
        check(same_results(ours, theirs, 0), f"written float model, {image}: MediaPipe gives the reference model's top 5",
              f"{ours} != {theirs}")
        product_reference, product_written = product_top(reference, image), product_top(written, image)
        check(same_results(product_written, product_reference, 0),
              f"written float model, {image}: vision-tasks gives the reference model's top 5", f"{product_written} != {product_reference}")
        check(same_results(product_written, ours, 0.01), f"written float model, {image}: vision-tasks within 0.01 of MediaPipe",
              f"{product_written} != {ours}")
    check_inspect(written, "written float model")


def check_every_field(work):
    models = os.path.join(TESTDATA, "models")
    source = os.path.join(models, "mobilenet_v1_0.25_224_quant.tflite")
    names = zipfile.ZipFile(source).read("labels.txt").decode().splitlines()
    labels, spanish, calibration = (os.path.join(work, n) for n in ("ids.txt", "labels_es.txt", "calibration.txt"))
    open(labels, "w").write("\n".join(f"/m/{i:05d}" for i in range(len(names))) + "\n")
    open(spanish, "w").write("\n".join(n + " (es)" for n in names) + "\n")
    open(calibration, "w").write("\n".join("" if i % 97 == 5 else f"1.0,{1 + i % 3},-0.5" for i in range(len(names))))
    written = os.path.join(work, "mobilenet_quant_every_field.tflite")
    output = tool("metadata", "write", source, "--output", written, "--labels", labels, "--labels-locale", f"es={spanish}",
                  "--name", "Written classifier", "--description", "Every field", "--version", "v7", "--author", "Tests",
                  "--license", "Apache-2.0", "--score-calibration", calibration, "--calibration-function", "log",
                  "--default-score", "0.01")
    check("replaced name: 'MobileNetV1 image classifier (quantized)' replaced by 'Written classifier'" in output,
          "metadata write reports the replaced name", output)
    theirs = json.loads(tfl_metadata.MetadataDisplayer.with_model_file(written).get_metadata_json())
    output_tensor = theirs["subgraph_metadata"][0]["output_tensor_metadata"][0]
    input_tensor = theirs["subgraph_metadata"][0]["input_tensor_metadata"][0]
    expected = {
        "name": "Written classifier", "description": "Every field", "version": "v7", "author": "Tests",
        "license": "Apache-2.0", "min_parser_version": "1.0.0",
    }
    check(all(theirs.get(k) == v for k, v in expected.items()), "displayer reads the written texts and min_parser_version",
          {k: theirs.get(k) for k in expected})
    units = {u["options_type"]: u["options"] for u in input_tensor.get("process_units", []) + output_tensor.get("process_units", [])}
    check(units.get("NormalizationOptions") == {"mean": [127.5], "std": [127.5]}, "displayer reads the kept normalization", units)
    check(units.get("ScoreCalibrationOptions") == {"score_transformation": "LOG", "default_score": 0.01},
          "displayer reads the score calibration", units)
    check(input_tensor["content"]["content_properties"] == {"color_space": "RGB"}, "displayer reads the RGB image properties",
          input_tensor["content"])
    files = [(f["name"], f["type"], f.get("locale")) for f in output_tensor["associated_files"]]
    check(files == [("ids.txt", "TENSOR_AXIS_LABELS", None), ("labels_es.txt", "TENSOR_AXIS_LABELS", "es"),
                    ("calibration.txt", "TENSOR_AXIS_SCORE_CALIBRATION", None)], "displayer reads the associated files", files)
    displayer = tfl_metadata.MetadataDisplayer.with_model_file(written)
    check(displayer.get_packed_associated_file_list() == ["ids.txt", "labels_es.txt", "calibration.txt"],
          "displayer finds the packed files", displayer.get_packed_associated_file_list())
    check(displayer.get_associated_file_buffer("labels_es.txt") == open(spanish, "rb").read(), "packed labels_es.txt is the file given")
    top = mediapipe_top(written, "burger.jpg", locale="es")
    check(top and top[0][2].startswith("/m/") and top[0][3].endswith(" (es)"),
          "MediaPipe uses the written ids and Spanish display names", top)
    # The top category only: the others tie at the default score, an order MediaPipe leaves unspecified.
    ours, theirs = product_top(written, "burger.jpg")[:1], mediapipe_top(written, "burger.jpg")[:1]
    check(same_results(ours, theirs, 0.01), "vision-tasks and MediaPipe agree on the calibrated written model", f"{ours} != {theirs}")
    check_inspect(written, "every-field model")


if __name__ == "__main__":
    TOOL, TESTDATA = sys.argv[1], sys.argv[2]
    shared = [os.path.join(root, f) for root in (os.path.join(TESTDATA, "models"), os.path.join(TESTDATA, "models", "generated"))
              for f in sorted(os.listdir(root)) if f.endswith(".tflite")]
    for model in shared:
        check_inspect(model, os.path.relpath(model, os.path.join(TESTDATA, "models")))
    work = tempfile.mkdtemp(prefix="metadata-tools.")
    try:
        check_bare_float_model(work)
        check_every_field(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{results['passed']} passed, {results['failed']} failed")
    sys.exit(1 if results["failed"] else 0)
