"""MediaPipe's answers for a 16-bit PNG whose low bytes are not zero (MediaPipe keeps the high byte).

Write the picture with `SVT_WRITE_PNG16=/tmp/burger16.png swift test --filter SixteenBitPNGTests`,
then (needs `pip install mediapipe==1.2.3`):
  python3 Tests/Reference/make_png16_reference.py ../shared/testdata/models /tmp/burger16.png \
    Tests/Reference/mediapipe_png16_outputs.json
Writes {"pngFNV1a64": hex, "scores": {model: {index: score}}} with MediaPipe's top 10 per model.
"""
import json
import os
import sys

import mediapipe as mp
from mediapipe.tasks import python as mpt
from mediapipe.tasks.python import vision

models_dir, png_path, out = sys.argv[1:4]
image = mp.Image.create_from_file(png_path)
scores = {}
for model in ['mobilenet_v1_0.25_224_1_metadata_1.tflite', 'mobilenet_v1_0.25_224_quant.tflite']:
    options = vision.ImageClassifierOptions(
        base_options=mpt.BaseOptions(model_asset_path=os.path.join(models_dir, model)), max_results=10)
    with vision.ImageClassifier.create_from_options(options) as classifier:
        categories = classifier.classify(image).classifications[0].categories
        scores[model] = {str(c.index): c.score for c in categories}
        print(model, categories[0].category_name, categories[0].score)
fnv = 0xcbf29ce484222325
for byte in open(png_path, 'rb').read():
    fnv = ((fnv ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
json.dump({'pngFNV1a64': format(fnv, 'x'), 'scores': scores}, open(out, 'w'), indent=1, sort_keys=True)
