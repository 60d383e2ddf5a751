"""MediaPipe 1.2.3's ImageClassifier on a model `vision-tasks train` exported, against `vision-tasks
classify` on the same photos: both must load it, rank the classes alike and give the same scores
(within 1e-5 for float scores, one UINT8 step for the quantized model). Pillow decodes the photos
(libjpeg-turbo and libpng: the pixels our decoder gives), with the EXIF orientation applied.

usage: mediapipe_check.py MODEL CLASSIFY_JSON TOLERANCE
  CLASSIFY_JSON: `vision-tasks classify --model MODEL --max-results -1 --format json PHOTOS...`
Prints one line per photo and a last line "mediapipe agrees: N photos, largest score difference D".
"""
import json
import sys

import numpy as np
from PIL import Image, ImageOps
import mediapipe as mp
from mediapipe.tasks import python as mpt
from mediapipe.tasks.python import vision

model, expected_path, tolerance = sys.argv[1], sys.argv[2], float(sys.argv[3])
records = json.load(open(expected_path))
options = vision.ImageClassifierOptions(base_options=mpt.BaseOptions(model_asset_path=model), max_results=-1)
largest = 0.0
with vision.ImageClassifier.create_from_options(options) as classifier:
    for record in records:
        pixels = np.ascontiguousarray(np.asarray(ImageOps.exif_transpose(Image.open(record["image"])).convert("RGB")))
        result = classifier.classify(mp.Image(image_format=mp.ImageFormat.SRGB, data=pixels))
        theirs = {c.category_name: c.score for c in result.classifications[0].categories}
        ours = {c["categoryName"]: c["score"] for c in record["classifications"][0]["categories"]}
        assert set(theirs) == set(ours), (record["image"], sorted(theirs), sorted(ours))
        difference = max(abs(theirs[name] - ours[name]) for name in ours)
        largest = max(largest, difference)
        top = result.classifications[0].categories[0].category_name
        assert difference <= tolerance, (record["image"], difference)
        print(f"{record['image']}: {top} {theirs[top]:.5f} (ours {ours[top]:.5f})")
print(f"mediapipe agrees: {len(records)} photos, largest score difference {largest:.2e}")
