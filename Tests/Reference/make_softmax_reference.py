"""scikit-learn's softmax regression on MediaPipe embeddings: the optimum our Training solver must reach.

Takes the first 20 photos (by file name) of each class folder of the clothing-small training set
(200 photos, 10 classes, classes in folder-name order), embeds each with MediaPipe's ImageEmbedder
(mobilenet_v1_1.0_224_quant_embedding_extractor.tflite, default options: float embeddings, no L2
normalization) on the pixels Pillow decodes (EXIF orientation applied, RGB), as
make_embedder_reference.py does, and fits

  sklearn.linear_model.LogisticRegression(C=1.0, solver='lbfgs', max_iter=10000, tol=1e-10)

(multinomial: softmax over the 10 classes, intercept not penalized) on the float64 embeddings.

The objective. scikit-learn documents the problem as
  min  C * sum_i CE(softmax(W x_i + b), y_i) + 1/2 ||W||_F^2,
ours (HeadFitting.SoftmaxRegression) is
  L(W, b) = (1/N) sum_i CE(softmax(W x_i + b), y_i) + (lambda/2) ||W||_F^2.
With lambda = 1 / (C * N) ours is theirs divided by C * N: the same minimizer, and the value
written here (`objective`) is in OUR normalization, computed from the coefficients in float64.
(scikit-learn's lbfgs solver itself minimizes the mean form with l2_reg_strength = 1/(C * N), so
its `tol` bounds the largest gradient element of our objective.)

Usage (needs `pip install mediapipe==1.2.3 scikit-learn==1.9.1 numpy pillow`):
  python3 Tests/Reference/make_softmax_reference.py ../shared/testdata Tests/Reference/sklearn_softmax_reference.json
Writes {"mediapipe_version", "sklearn_version", "dataset", "model", "C", "l2_strength",
        "class_names": [K], "files": [N paths relative to the dataset folder], "labels": [N],
        "feature_sums": [N: the sum of each photo's embedding, float64, to check the features],
        "coef": [K][D] (float32 shortest digits), "intercept": [K] (float64), "n_iter",
        "objective", "gradient_norm" (Euclidean norm of our objective's gradient in (W, b) at
        the written coefficients), "training_accuracy"}.
"""
import json
import math
import os
import sys

import numpy as np
from PIL import Image, ImageOps
import mediapipe as mp
import sklearn
from mediapipe.tasks import python as mpt
from mediapipe.tasks.python import vision
from sklearn.linear_model import LogisticRegression

testdata, out = sys.argv[1:3]
DATASET = 'datasets/clothing-small/train'
MODEL = 'mobilenet_v1_1.0_224_quant_embedding_extractor.tflite'
PER_CLASS = 20
C = 1.0

dataset = os.path.join(testdata, DATASET)
class_names = sorted(name for name in os.listdir(dataset) if os.path.isdir(os.path.join(dataset, name)))
files, labels = [], []
for label, name in enumerate(class_names):
    photos = sorted(photo for photo in os.listdir(os.path.join(dataset, name)) if photo.endswith('.jpg'))
    files += [f'{name}/{photo}' for photo in photos[:PER_CLASS]]
    labels += [label] * PER_CLASS


def decoded(path):
    image = ImageOps.exif_transpose(Image.open(os.path.join(dataset, path)))
    pixels = np.ascontiguousarray(np.asarray(image.convert('RGB')))
    return mp.Image(image_format=mp.ImageFormat.SRGB, data=pixels)


options = vision.ImageEmbedderOptions(base_options=mpt.BaseOptions(
    model_asset_path=os.path.join(testdata, 'models', MODEL)))
with vision.ImageEmbedder.create_from_options(options) as embedder:
    rows = []
    for path in files:
        embeddings = embedder.embed(decoded(path)).embeddings
        assert len(embeddings) == 1, path
        rows.append(np.asarray(embeddings[0].embedding, dtype=np.float32))
features = np.stack(rows).astype(np.float64)
y = np.asarray(labels)
n, d = features.shape

model = LogisticRegression(C=C, solver='lbfgs', max_iter=10000, tol=1e-10).fit(features, y)
assert list(model.classes_) == list(range(len(class_names)))
coef = model.coef_.astype(np.float32)  # what the JSON keeps (shortest float32 digits)
intercept = model.intercept_
weights = coef.astype(np.float64)
l2_strength = 1.0 / (C * n)


def objective_and_gradient(weights, intercept):
    logits = features @ weights.T + intercept
    logits -= logits.max(axis=1, keepdims=True)
    log_probabilities = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    onehot = np.eye(len(class_names))[y]
    value = -(onehot * log_probabilities).sum() / n + 0.5 * l2_strength * (weights ** 2).sum()
    residual = (np.exp(log_probabilities) - onehot) / n
    gradient = np.concatenate([(residual.T @ features + l2_strength * weights).ravel(), residual.sum(axis=0)])
    return value, gradient


objective, gradient = objective_and_gradient(weights, intercept)


def float32(value):
    """The float32 `value` as the float64 with its shortest float32 digits (JSON writes them as
    they are): what float32 rounding leaves, in fewer bytes."""
    return float(str(np.float32(value)))


text = json.dumps({
    'mediapipe_version': mp.__version__, 'sklearn_version': sklearn.__version__,
    'dataset': DATASET, 'model': MODEL, 'C': C, 'l2_strength': l2_strength,
    'class_names': class_names, 'files': files, 'labels': labels,
    'feature_sums': [math.fsum(row) for row in features],
    'coef': [[float32(v) for v in row] for row in coef], 'intercept': [float(v) for v in intercept],
    'n_iter': int(model.n_iter_[0]), 'objective': float(objective),
    'gradient_norm': float(np.linalg.norm(gradient)),
    'training_accuracy': float(model.score(features, y)),
}, separators=(',', ':'))
with open(out, 'w') as file:
    file.write(text + '\n')
print(f'{n} photos, {d} features, {len(class_names)} classes: objective {objective!r}, '
      f'gradient norm {np.linalg.norm(gradient):.3g}, n_iter {model.n_iter_[0]}, '
      f'accuracy {model.score(features, y)}, {len(text)} bytes')
