"""MediaPipe's answers for the RESHAPE test models (which output shapes it accepts).

The models are built by the Swift tests (Tests/VisionTasksTests/ReshapeModel.swift); write them
with `SVT_WRITE_RESHAPE_MODELS=/tmp/reshape swift test --filter OutputShapeTests`, then
(needs `pip install mediapipe==1.2.3`):
  python3 Tests/Reference/make_reshape_reference.py /tmp/reshape ../shared/testdata/images/burger-224.png \
    Tests/Reference/mediapipe_reshape_outputs.json
Writes {"image": name, "models": {name: {"model": base64, "error": text} | {"model", "scores": {index: score}}}}
with every category (max_results -1, score threshold 0).
"""
import base64
import json
import os
import sys

import mediapipe as mp
from mediapipe.tasks import python as mpt
from mediapipe.tasks.python import vision

models_dir, image_path, out = sys.argv[1:4]
image = mp.Image.create_from_file(image_path)
models = {}
for file in sorted(os.listdir(models_dir)):
    name = file[:-len('.tflite')]
    path = os.path.join(models_dir, file)
    entry = {'model': base64.b64encode(open(path, 'rb').read()).decode()}
    try:
        options = vision.ImageClassifierOptions(base_options=mpt.BaseOptions(model_asset_path=path), max_results=-1)
        with vision.ImageClassifier.create_from_options(options) as classifier:
            result = classifier.classify(image)
            entry['scores'] = {str(c.index): c.score for c in result.classifications[0].categories}
    except Exception as error:  # MediaPipe raises RuntimeError/ValueError for unsupported models
        entry['error'] = str(error)
    print(name, entry.get('error') or f"{len(entry['scores'])} categories")
    models[name] = entry
json.dump({'image': os.path.basename(image_path), 'models': models}, open(out, 'w'), indent=1, sort_keys=True)
