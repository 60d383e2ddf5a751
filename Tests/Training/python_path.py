"""The Python path a user would take to train a classifier on a folder of photos, timed end to end:
MediaPipe 1.2.3's ImageEmbedder over every photo (MediaPipe's own file decoding,
`mp.Image.create_from_file`), then scikit-learn's LogisticRegression (C=1, lbfgs), measured on the
validation folder. Prints one JSON line: seconds for the features and the fit, total, validation accuracy.

usage: python_path.py TRAIN_DIR VALIDATION_DIR MODEL
"""
import json
import os
import sys
import time

import numpy as np
import mediapipe as mp
from mediapipe.tasks import python as mpt
from mediapipe.tasks.python import vision
from sklearn.linear_model import LogisticRegression

train_dir, validation_dir, model = sys.argv[1:4]
start = time.perf_counter()
classes = sorted(d for d in os.listdir(train_dir) if os.path.isdir(os.path.join(train_dir, d)))


def features(folder, embedder):
    rows, labels = [], []
    for label, name in enumerate(classes):
        for photo in sorted(os.listdir(os.path.join(folder, name))):
            image = mp.Image.create_from_file(os.path.join(folder, name, photo))
            rows.append(embedder.embed(image).embeddings[0].embedding)
            labels.append(label)
    return np.array(rows), np.array(labels)


options = vision.ImageEmbedderOptions(base_options=mpt.BaseOptions(model_asset_path=model))
with vision.ImageEmbedder.create_from_options(options) as embedder:
    x_train, y_train = features(train_dir, embedder)
    x_validation, y_validation = features(validation_dir, embedder)
feature_seconds = time.perf_counter() - start
fit_start = time.perf_counter()
classifier = LogisticRegression(C=1.0, max_iter=1000).fit(x_train, y_train)
fit_seconds = time.perf_counter() - fit_start
accuracy = float((classifier.predict(x_validation) == y_validation).mean())
print(json.dumps({"featureSeconds": round(feature_seconds, 1), "fitSeconds": round(fit_seconds, 1),
                  "totalSeconds": round(time.perf_counter() - start, 1), "validationAccuracy": accuracy,
                  "iterations": int(classifier.n_iter_[0])}))
