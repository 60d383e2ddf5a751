"""The TFLite Support Task Library's answers for a model with per-channel normalization.

MediaPipe refuses three different means or standard deviations; the Task Library
(tflite-support 0.4.4, whose ImageClassifier is the C++ task library behind it) applies
them per channel. This script writes ImageNet's per-channel values into the float
mobilenet's metadata with tflite-support's own metadata writer and classifies the shared PNG
photos with the Task Library, on 224x224 regions (no resizing, so that only the
normalization is compared: the Task Library resizes with libyuv, MediaPipe and this product
with OpenCV's warp).

Run (the venv is made once; tflite-support 0.4.4 needs numpy < 2):
  python3 -m venv ~/.cache/swift-vision-tasks/venv-tflite-support
  ~/.cache/swift-vision-tasks/venv-tflite-support/bin/pip install tflite-support==0.4.4 'numpy<2'
  ~/.cache/swift-vision-tasks/venv-tflite-support/bin/python Tests/Reference/make_per_channel_reference.py \
    ../shared/testdata Tests/Reference/task_library_per_channel_outputs.json
Writes {"mean": [...], "std": [...], "cases": [{"image", "box": [x, y, width, height],
"categories": [{"index", "score", "category_name"}]}]} with the top 10 per case.
"""
import json
import os
import sys
import tempfile
import zipfile

from tflite_support.metadata_writers import image_classifier
from tflite_support.metadata_writers import writer_utils
from tflite_support.task import core, processor, vision

MEAN = [123.675, 116.28, 103.53]
STD = [58.395, 57.12, 57.375]
# Pixel boxes [x, y, width, height] of 224x224 regions; burger-224.png is the whole image.
# sparrow.png's boxes hold the head, the body and feet, the tail.
CASES = [('burger-224.png', [0, 0, 224, 224]), ('sparrow.png', [440, 200, 224, 224]),
         ('sparrow.png', [520, 380, 224, 224]), ('sparrow.png', [720, 400, 224, 224])]

testdata, out = sys.argv[1:3]
models = os.path.join(testdata, 'models')
with tempfile.TemporaryDirectory() as work:
    labels = os.path.join(work, 'labels.txt')
    with zipfile.ZipFile(os.path.join(models, 'mobilenet_v1_0.25_224_1_metadata_1.tflite')) as archive:
        open(labels, 'wb').write(archive.read('labels.txt'))
    bare = writer_utils.load_file(os.path.join(models, 'mobilenet_v1_0.25_224_1_default_1.tflite'))
    writer = image_classifier.MetadataWriter.create_for_inference(bare, MEAN, STD, [labels])
    model = os.path.join(work, 'per_channel.tflite')
    writer_utils.save_file(writer.populate(), model)

    options = vision.ImageClassifierOptions(
        base_options=core.BaseOptions(file_name=model),
        classification_options=processor.ClassificationOptions(max_results=10))
    classifier = vision.ImageClassifier.create_from_options(options)
    cases = []
    for image_name, box in CASES:
        image = vision.TensorImage.create_from_file(os.path.join(testdata, 'images', image_name))
        result = classifier.classify(image, processor.BoundingBox(*box))
        categories = [{'index': c.index, 'score': c.score, 'category_name': c.category_name}
                      for c in result.classifications[0].categories]
        print(image_name, box, categories[0])
        cases.append({'image': image_name, 'box': box, 'categories': categories})
json.dump({'mean': MEAN, 'std': STD, 'cases': cases}, open(out, 'w'), indent=1)
