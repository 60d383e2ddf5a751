"""Prints MediaPipe's input tensors for ImagePreprocessorGoldenTests: FNV-1a 64 of the whole
tensor and four elements. Needs mediapipe==1.2.3, Pillow, numpy, flatbuffers, mediapipe_probe.py.
Usage: make_golden.py IMAGES_DIR"""
import os, sys, tempfile
import numpy as np
from PIL import Image
from mediapipe_probe import write_probe, mediapipe_tensor

CASES = [  # name, image, (H, W), rotation, roi (l, t, r, b) or None, mirrored, element
    ('burgerWhole', 'burger.jpg', (224, 224), 0, None, False, 'u8'),
    ('burgerRotation90', 'burger.jpg', (224, 224), 90, None, False, 'u8'),
    ('burgerRotationMinus90', 'burger.jpg', (224, 224), -90, None, False, 'u8'),
    ('burgerRotation270', 'burger.jpg', (224, 224), 270, None, False, 'u8'),
    ('burgerRotation180', 'burger.jpg', (224, 224), 180, None, False, 'u8'),
    ('multiObjectsRegion', 'multi_objects.jpg', (224, 224), 0, (0.45, 0.3075, 0.614, 0.7345), False, 'u8'),
    ('multiObjectsRegionMinus90', 'multi_objects.jpg', (224, 224), -90, (0.2655, 0.45, 0.6925, 0.614), False, 'u8'),
    ('sparrowRGBARegion180', 'sparrow.png', (224, 224), 180, (0.1, 0.2, 0.9, 0.8), False, 'u8'),
    ('graceHopperSmallTensor', 'grace_hopper.jpg', (37, 53), 90, (0.25, 0.125, 0.75, 0.625), False, 'u8'),
    ('catMirroredRegion90', 'cat.jpg', (224, 224), 90, (0.125, 0.25, 0.75, 1.0), True, 'u8'),
    ('graceHopperTieRows', 'grace_hopper.jpg', (128, 96), -270, (0.0, 0.0, 1.0, 0.41), False, 'u8'),
    ('multiObjectsTieRows', 'multi_objects.jpg', (128, 96), 180, None, False, 'u8'),
    ('burgerFloat', 'burger.jpg', (224, 224), 0, None, False, (127.5, 127.5)),
    ('dogsFloatImageNet', 'dogs.jpg', (37, 53), 0, None, False, (123.675, 58.395)),
]
probes = tempfile.mkdtemp()

def probe(h, w, normalization=None):
    path = os.path.join(probes, f'probe_{h}x{w}_{normalization}.tflite')
    if not os.path.exists(path): write_probe(path, h, w, normalization)
    return path

def fnv(data):
    h = 0xcbf29ce484222325
    for byte in data: h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h

for name, image, (h, w), rotation, roi, mirrored, element in CASES:
    img = Image.open(os.path.join(sys.argv[1], image))
    pixels = np.asarray(img.convert('RGBA' if img.mode == 'RGBA' else 'RGB'))
    if mirrored:  # MediaPipe cannot mirror: flip the pixels, mirror the region (in float32, as Swift)
        pixels = pixels[:, ::-1]
        f = np.float32
        if roi: roi = (float(f(1) - f(roi[2])), roi[1], float(f(1) - f(roi[0])), roi[3])
    if element == 'u8':
        t = mediapipe_tensor(probe(h, w), h, w, pixels, rotation, roi)
    else:
        t = mediapipe_tensor(probe(h, w, element), h, w, pixels, rotation, roi, float_output=True).astype('<f4')
    flat = t.reshape(-1); n = flat.size
    picks = [0, n // 3, 2 * n // 3, n - 1]
    values = ', '.join(f'{i}: {int(flat[i])}' if element == 'u8' else f'{i}: {float(flat[i])!r}' for i in picks)
    print(f'{name}: fnv 0x{fnv(flat.tobytes()):016x} samples [{values}]')

# A 3x2 image with R = G = B = [[0, 10, 20], [30, 40, 50]]: the whole tensor (one channel).
tiny = np.repeat(np.array([[0, 10, 20], [30, 40, 50]], np.uint8)[:, :, None], 3, axis=2)
for rotation in (90, 180, -90):
    th, tw = (3, 2) if rotation % 180 else (2, 3)
    t = mediapipe_tensor(probe(th, tw), th, tw, tiny, rotation)
    print(f'tinyRotation{rotation}: {t[:, :, 0].tolist()}')
