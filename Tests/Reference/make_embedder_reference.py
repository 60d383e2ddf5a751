"""MediaPipe ImageEmbedder's answers on the same decoded pixels our decoder produces.

As in make_decoded_reference.py, each image is decoded with Pillow (libjpeg-turbo, libpng:
pixel-identical to our decoder), its EXIF orientation applied, and MediaPipe given the RGB
pixels, so that the embeddings test our preprocessing, inference and postprocessing exactly.

Usage (needs `pip install mediapipe==1.2.3 pillow numpy`):
  python3 Tests/Reference/make_embedder_reference.py ../shared/testdata Tests/Reference/mediapipe_embedder_outputs.json
Writes {"mediapipe_version": "...",
        "embeddings": [{model, image, roi: [left, top, right, bottom] | null, rotation_degrees,
                        l2_normalize, quantize, head_index, head_name,
                        float_embedding: [float] | null, quantized_embedding: [int8] | null}],
        "cosine_similarities": [{model, l2_normalize, quantize, first, second, value}],
        "rankings": [{model, query, similarities: {image: value}}]}
for the two embedder models, every image with each combination of l2_normalize and quantize,
region-of-interest and rotation cases, MediaPipe's cosine similarity between image pairs, and
for `similar`, the similarity of burger.jpg to every image of the folder (default options).
Floats are written with the shortest decimal that gives back the same float32 (MediaPipe's
embeddings are float32; nothing is rounded). Quantized values are signed (MediaPipe Python hands
them over as uint8 bytes).
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

MODELS = ['mobilenet_v2_035_96_embedder_with_metadata.tflite',
          'mobilenet_v1_1.0_224_quant_embedding_extractor.tflite']
IMAGES = ['burger.jpg', 'burger_crop.jpg', 'sparrow.png', 'cat.jpg', 'cats_and_dogs.jpg']
OPTIONS = [(l2, quantize) for l2 in (False, True) for quantize in (False, True)]
# Regions (left, top, right, bottom) and clockwise rotations. The images have no EXIF rotation,
# so that the rotation is the only one (our API gives it as MPImage.orientation).
REGIONS = [('burger.jpg', [0.1, 0.15, 0.75, 0.9], 0),
           ('burger.jpg', None, 90),
           ('cats_and_dogs.jpg', [0.05, 0.1, 0.55, 0.95], -90),
           ('sparrow.png', [0.2, 0.05, 0.9, 0.85], 180)]
REGION_OPTIONS = [(False, False), (True, False), (True, True)]  # each quantized case with its floats
PAIRS = [('burger.jpg', 'burger_crop.jpg'), ('burger.jpg', 'sparrow.png'),
         ('sparrow.png', 'cat.jpg'), ('cat.jpg', 'cats_and_dogs.jpg')]


def decoded(name):
    image = ImageOps.exif_transpose(Image.open(os.path.join(images_dir, name)))
    pixels = np.ascontiguousarray(np.asarray(image.convert('RGB')))
    return mp.Image(image_format=mp.ImageFormat.SRGB, data=pixels)


def embedder(model, l2, quantize):
    base = mpt.BaseOptions(model_asset_path=os.path.join(models_dir, model))
    options = vision.ImageEmbedderOptions(base_options=base, l2_normalize=l2, quantize=quantize)
    return vision.ImageEmbedder.create_from_options(options)


def float32(value):
    """The float32 `value` as the float64 with its shortest float32 digits, which JSON writes as
    they are ('0.094113916' rather than '0.09411391168832779'): the same float32, fewer bytes."""
    return float(str(np.float32(value)))


def record(model, image, roi, rotation, l2, quantize, embedding):
    values = embedding.embedding
    return {'model': model, 'image': image, 'roi': roi, 'rotation_degrees': rotation,
            'l2_normalize': l2, 'quantize': quantize,
            'head_index': embedding.head_index, 'head_name': embedding.head_name,
            'float_embedding': None if quantize else [float32(v) for v in values],
            'quantized_embedding': [int(v) for v in values.astype(np.uint8).view(np.int8)] if quantize else None}


embeddings, similarities, rankings = [], [], []
for model in MODELS:
    for l2, quantize in OPTIONS:
        with embedder(model, l2, quantize) as task:
            results = {image: task.embed(decoded(image)).embeddings for image in IMAGES}
            for image in IMAGES:
                assert len(results[image]) == 1
                embeddings.append(record(model, image, None, 0, l2, quantize, results[image][0]))
            for first, second in PAIRS:
                value = vision.ImageEmbedder.cosine_similarity(results[first][0], results[second][0])
                similarities.append({'model': model, 'l2_normalize': l2, 'quantize': quantize,
                                     'first': first, 'second': second, 'value': float(value)})
    with embedder(model, False, False) as task:
        query = task.embed(decoded('burger.jpg')).embeddings[0]
        folder = sorted(name for name in os.listdir(images_dir) if name.endswith(('.jpg', '.png')))
        rankings.append({'model': model, 'query': 'burger.jpg', 'similarities': {
            name: float(vision.ImageEmbedder.cosine_similarity(query, task.embed(decoded(name)).embeddings[0]))
            for name in folder}})
    for l2, quantize in REGION_OPTIONS:
        with embedder(model, l2, quantize) as task:
            for image, roi, rotation in REGIONS:
                rect = rect_module.RectF(left=roi[0], top=roi[1], right=roi[2], bottom=roi[3]) if roi else None
                options = vision.ImageProcessingOptions(region_of_interest=rect, rotation_degrees=rotation)
                result = task.embed(decoded(image), options).embeddings
                embeddings.append(record(model, image, roi, rotation, l2, quantize, result[0]))


text = json.dumps({'mediapipe_version': mp.__version__, 'embeddings': embeddings,
                   'cosine_similarities': similarities, 'rankings': rankings}, separators=(',', ':'))
with open(out, 'w') as file:
    file.write(text + '\n')
print(f'{len(embeddings)} embeddings, {len(similarities)} similarities, {len(rankings)} rankings, {len(text)} bytes')
