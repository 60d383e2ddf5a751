"""MediaPipe's answers on the same decoded pixels our decoder produces.

MediaPipe decodes JPEG files with stb_image; we decode them with libjpeg-turbo, which differs by
up to 3 levels per pixel, enough to move a quantized model's scores by several quantization
steps. To test our preprocessing, inference and postprocessing exactly, this script decodes each
shared image with Pillow (libjpeg-turbo, libpng: pixel-identical to our decoder), applies the EXIF
orientation, and gives MediaPipe the RGB pixels.

Usage (needs `pip install mediapipe==1.2.3 pillow`):
  python3 Tests/Reference/make_decoded_reference.py ../shared/testdata Tests/Reference/mediapipe_decoded_pixels.json
Writes {"image_mode": {model: {image: [head]} | {"error": text}},
        "roi_rotation": {model: [case + categories]},
        "generated": [case + categories]}
with the same case lists as the shared expected/*.json files.
"""
import json
import os
import sys

import numpy as np
from PIL import Image, ImageOps
import mediapipe as mp
from mediapipe.tasks import python as mpt
from mediapipe.tasks.python import vision
from mediapipe.tasks.python.components.containers import rect as rect_module

testdata, out = sys.argv[1:3]
models_dir = os.path.join(testdata, 'models')
images_dir = os.path.join(testdata, 'images')
expected_dir = os.path.join(testdata, 'expected')


def decoded(name):
    image = ImageOps.exif_transpose(Image.open(os.path.join(images_dir, name)))
    pixels = np.ascontiguousarray(np.asarray(image.convert('RGB')))
    return mp.Image(image_format=mp.ImageFormat.SRGB, data=pixels)


def classifier(model, **options):
    base = mpt.BaseOptions(model_asset_path=os.path.join(models_dir, model))
    return vision.ImageClassifier.create_from_options(vision.ImageClassifierOptions(base_options=base, **options))


def heads(result):
    return [{'head_index': c.head_index, 'head_name': c.head_name,
             'categories': [{'index': k.index, 'score': k.score, 'category_name': k.category_name,
                             'display_name': k.display_name} for k in c.categories]}
            for c in result.classifications]


def image_mode():
    reference = json.load(open(os.path.join(expected_dir, 'mediapipe_image_mode.json')))
    result = {}
    for model, entries in sorted(reference.items()):
        try:
            clf = classifier(model, max_results=10)
        except Exception as error:  # the refused model: keep MediaPipe's message
            result[model] = {'error': str(error)}
            continue
        result[model] = {image: heads(clf.classify(decoded(image))) for image in sorted(entries)}
    return result


def roi_rotation():
    reference = json.load(open(os.path.join(expected_dir, 'mediapipe_roi_rotation.json')))
    result = {}
    for model, cases in sorted(reference.items()):
        clf = classifier(model, max_results=5)
        result[model] = []
        for case in cases:
            roi = case.get('roi')
            rect = rect_module.RectF(left=roi[0], top=roi[1], right=roi[2], bottom=roi[3]) if roi else None
            options = vision.ImageProcessingOptions(region_of_interest=rect, rotation_degrees=case['rotation_degrees'])
            answer = heads(clf.classify(decoded(case['image']), options))[0]['categories']
            result[model].append({k: case[k] for k in ('image', 'roi', 'rotation_degrees')} | {'categories': answer})
    return result


def generated():
    reference = json.load(open(os.path.join(expected_dir, 'mediapipe_generated_models.json')))
    result = []
    for case in reference:
        clf = classifier(os.path.join('generated', case['model']), max_results=5, **case['options'])
        answer = heads(clf.classify(decoded(case['image'])))[0]['categories']
        result.append({k: case[k] for k in ('model', 'options', 'image')} | {'categories': answer})
    return result


json.dump({'image_mode': image_mode(), 'roi_rotation': roi_rotation(), 'generated': generated()},
          open(out, 'w'), indent=1)
