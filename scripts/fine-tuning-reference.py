#!/usr/bin/env python3
"""Reference forward/backward and optimizer steps for the FineTuning engine's tests (NumPy only).

Run from the package root:
    /root/.cache/swift-vision-tasks/venv-serve/bin/python scripts/fine-tuning-reference.py
(any Python 3 with NumPy). It writes Tests/FineTuningTests/Fixtures/reference.json, which is
committed: the tests read it and do not run this script. The same seed gives the same file.

The network, written independently of the Swift code with plain loops in float64:
input [N, 4, 4, 3] -> depthwise 3x3 SAME stride 1 (multiplier 1) + RELU6 -> conv 1x1 3->4 + RELU6
-> average pool 4x4 VALID -> reshape [N, 4] -> fully connected 4->3 (logits)
-> softmax cross-entropy with label smoothing 0.1, balanced class weights (N / (classes * N_c)),
weight decay 0.01 on the weights (not the biases). The pretrained layers (depthwise, conv) learn at
0.1 x the head's learning rate. Steps: 3 full-batch steps of Adam (Keras: beta1 0.9, beta2 0.999,
eps 1e-7) and, separately, 3 of SGD with momentum 0.9, from the same start.
"""
import json
import os

import numpy as np

N, H, W, C, OUT, CLASSES = 6, 4, 4, 3, 4, 3
SMOOTHING, DECAY, LEARNING_RATE, BASE_SCALE = 0.1, 0.01, 0.01, 0.1
LABELS = [0, 0, 0, 1, 1, 2]

rng = np.random.default_rng(20240611)
params = {
    "depthwise_filter": rng.uniform(-0.5, 0.5, (1, 3, 3, C)),
    "depthwise_bias": rng.uniform(-0.2, 0.2, (C,)),
    "conv_filter": rng.uniform(-0.8, 0.8, (OUT, 1, 1, C)),
    "conv_bias": rng.uniform(-0.2, 0.2, (OUT,)),
    "fc_weights": rng.uniform(-0.8, 0.8, (CLASSES, OUT)),
    "fc_bias": rng.uniform(-0.2, 0.2, (CLASSES,)),
}
ORDER = list(params)
PRETRAINED = {"depthwise_filter", "depthwise_bias", "conv_filter", "conv_bias"}
WEIGHTS = {"depthwise_filter", "conv_filter", "fc_weights"}
# Values up to 8 so that some depthwise outputs clamp at 6.
inputs = rng.uniform(-1.0, 4.0, (N, H, W, C))


def relu6(x):
    return np.minimum(np.maximum(x, 0.0), 6.0)


def relu6_derivative(y):
    return ((y > 0.0) & (y < 6.0)).astype(np.float64)


def forward(p, x):
    """Returns every intermediate value."""
    dw = np.zeros((N, H, W, C))
    for n in range(N):
        for i in range(H):
            for j in range(W):
                total = p["depthwise_bias"].copy()
                for ki in range(3):
                    for kj in range(3):
                        ii, jj = i + ki - 1, j + kj - 1  # SAME, k 3, stride 1: one row/column of padding each side
                        if 0 <= ii < H and 0 <= jj < W:
                            total += x[n, ii, jj, :] * p["depthwise_filter"][0, ki, kj, :]
                dw[n, i, j] = total
    dw = relu6(dw)
    conv = relu6(np.einsum("nhwc,oc->nhwo", dw, p["conv_filter"][:, 0, 0, :]) + p["conv_bias"])
    pooled = conv.mean(axis=(1, 2))
    logits = pooled @ p["fc_weights"].T + p["fc_bias"]
    return dw, conv, pooled, logits


def class_weights():
    counts = np.bincount(LABELS, minlength=CLASSES)
    return np.array([N / (CLASSES * counts[label]) for label in LABELS])


def targets():
    t = np.full((N, CLASSES), SMOOTHING / CLASSES)
    t[np.arange(N), LABELS] += 1.0 - SMOOTHING
    return t


def loss_and_gradients(p, x):
    dw, conv, pooled, logits = forward(p, x)
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_probabilities = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    probabilities = np.exp(log_probabilities)
    w = class_weights()
    t = targets()
    loss = float((w * -(t * log_probabilities).sum(axis=1)).sum() / N)
    loss += DECAY / 2 * sum(float((p[k] ** 2).sum()) for k in WEIGHTS)

    g = {}
    d_logits = w[:, None] * (probabilities - t) / N
    g["fc_weights"] = d_logits.T @ pooled
    g["fc_bias"] = d_logits.sum(axis=0)
    d_pooled = d_logits @ p["fc_weights"]
    d_conv = np.broadcast_to(d_pooled[:, None, None, :] / (H * W), conv.shape) * relu6_derivative(conv)
    g["conv_filter"] = np.einsum("nhwo,nhwc->oc", d_conv, dw)[:, None, None, :]
    g["conv_bias"] = d_conv.sum(axis=(0, 1, 2))
    d_dw = np.einsum("nhwo,oc->nhwc", d_conv, p["conv_filter"][:, 0, 0, :]) * relu6_derivative(dw)
    g["depthwise_bias"] = d_dw.sum(axis=(0, 1, 2))
    d_filter = np.zeros((1, 3, 3, C))
    for n in range(N):
        for i in range(H):
            for j in range(W):
                for ki in range(3):
                    for kj in range(3):
                        ii, jj = i + ki - 1, j + kj - 1
                        if 0 <= ii < H and 0 <= jj < W:
                            d_filter[0, ki, kj, :] += d_dw[n, i, j, :] * x[n, ii, jj, :]
    g["depthwise_filter"] = d_filter
    for k in WEIGHTS:
        g[k] = g[k] + DECAY * p[k]
    return loss, g


def rate(name):
    return LEARNING_RATE * (BASE_SCALE if name in PRETRAINED else 1.0)


def train(kind, steps=3):
    p = {k: v.copy() for k, v in params.items()}
    first = {k: np.zeros_like(v) for k, v in p.items()}
    second = {k: np.zeros_like(v) for k, v in p.items()}
    for t in range(1, steps + 1):
        _, g = loss_and_gradients(p, inputs)
        for k in ORDER:
            if kind == "adam":
                first[k] = 0.9 * first[k] + 0.1 * g[k]
                second[k] = 0.999 * second[k] + 0.001 * g[k] ** 2
                alpha = rate(k) * np.sqrt(1 - 0.999**t) / (1 - 0.9**t)
                p[k] = p[k] - alpha * first[k] / (np.sqrt(second[k]) + 1e-7)
            else:
                first[k] = 0.9 * first[k] - rate(k) * g[k]
                p[k] = p[k] + first[k]
    return p


def flat(values):
    return [float(v) for v in np.asarray(values).reshape(-1)]


def main():
    loss, gradients = loss_and_gradients(params, inputs)
    fixture = {
        "inputShape": [1, H, W, C],
        "inputs": [flat(x) for x in inputs],
        "labels": LABELS,
        "classCount": CLASSES,
        "labelSmoothing": SMOOTHING,
        "weightDecay": DECAY,
        "learningRate": LEARNING_RATE,
        "baseLearningRateScale": BASE_SCALE,
        "parameterOrder": ORDER,
        "parameters": [flat(params[k]) for k in ORDER],
        "loss": loss,
        "gradients": [flat(gradients[k]) for k in ORDER],
        "afterAdam": [flat(v) for v in (train("adam")[k] for k in ORDER)],
        "afterSGD": [flat(v) for v in (train("sgd")[k] for k in ORDER)],
    }
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.path.join(root, "Tests", "FineTuningTests", "Fixtures", "reference.json")
    with open(path, "w") as f:
        json.dump(fixture, f, indent=1)
        f.write("\n")
    print(f"wrote {path}: loss {loss:.6f}")


if __name__ == "__main__":
    main()
