// The scripts that produced the golden values and fixtures of these tests, kept here
// verbatim because the test target cannot hold non-Swift files (SwiftPM would warn about
// unhandled files). To rerun, copy each block into a file of the given name.
//
// Requirements: Python 3 with `pip install mediapipe==1.2.3 pillow pypng numpy flatbuffers`.
// - Fixtures.swift:         python3 make_fixtures.py Fixtures.swift
// - MediaPipe golden tests: python3 make_golden.py ../shared/testdata/images
//   (its output is pasted into ImagePreprocessorGoldenTests.swift)
//
// During development the same probe also checked ImagePreprocessor against MediaPipe on
// several hundred random cases (all pixel formats, tensor sizes from 1x1 to 480x325,
// rotations -450...810, regions, mirroring, uint8 and float32): every tensor was
// bit-identical.

/* ===== mediapipe_probe.py =====
"""Reads MediaPipe's preprocessed input tensor through its image classifier.

A probe model has one RESHAPE operation from the image input [1,H,W,3] to an output
[1,H*W*3]; MediaPipe reports each output element as the score of the category with the same
flat index, so the scores are the tensor MediaPipe built. uint8 probes need no metadata
(output scale 1, zero point 0); float32 probes carry NormalizationOptions metadata.
Needs mediapipe==1.2.3, numpy, flatbuffers."""
import struct
import flatbuffers
import numpy as np
import mediapipe as mp
from mediapipe.tasks import python as mpt
from mediapipe.tasks.python import vision
from mediapipe.tasks.python.components.containers import rect as rect_module


def _ivec(b, items):
    b.StartVector(4, len(items), 4)
    for x in reversed(items): b.PrependInt32(x)
    return b.EndVector()


def _normalization_metadata(mean, std):
    """ModelMetadata (identifier M001): one subgraph, input NormalizationOptions, one output."""
    m = flatbuffers.Builder(256)
    def fvec(v):
        m.StartVector(4, 1, 4); m.PrependFloat32(v); return m.EndVector()
    mv, sv = fvec(mean), fvec(std)
    m.StartObject(2); m.PrependUOffsetTRelativeSlot(0, mv, 0); m.PrependUOffsetTRelativeSlot(1, sv, 0); norm = m.EndObject()
    m.StartObject(2); m.PrependUint8Slot(0, 1, 0); m.PrependUOffsetTRelativeSlot(1, norm, 0); unit = m.EndObject()
    m.StartVector(4, 1, 4); m.PrependUOffsetTRelative(unit); units = m.EndVector()
    name = m.CreateString("image")
    m.StartObject(7); m.PrependUOffsetTRelativeSlot(0, name, 0); m.PrependUOffsetTRelativeSlot(4, units, 0); input_md = m.EndObject()
    name = m.CreateString("probability")
    m.StartObject(7); m.PrependUOffsetTRelativeSlot(0, name, 0); output_md = m.EndObject()
    m.StartVector(4, 1, 4); m.PrependUOffsetTRelative(input_md); inputs = m.EndVector()
    m.StartVector(4, 1, 4); m.PrependUOffsetTRelative(output_md); outputs = m.EndVector()
    m.StartObject(4); m.PrependUOffsetTRelativeSlot(2, inputs, 0); m.PrependUOffsetTRelativeSlot(3, outputs, 0); subgraph = m.EndObject()
    m.StartVector(4, 1, 4); m.PrependUOffsetTRelative(subgraph); subgraphs = m.EndVector()
    name = m.CreateString("tensor probe")
    m.StartObject(8); m.PrependUOffsetTRelativeSlot(0, name, 0); m.PrependUOffsetTRelativeSlot(3, subgraphs, 0); root = m.EndObject()
    m.Finish(root, file_identifier=b"M001")
    return bytes(m.Output())


def write_probe(path, h, w, normalization=None):
    """Writes a uint8 probe (normalization None) or a float32 probe with (mean, std) metadata."""
    n = h * w * 3
    is_float = normalization is not None
    b = flatbuffers.Builder(1024)
    buffers = [None, struct.pack('<2i', 1, n)] + ([_normalization_metadata(*normalization)] if is_float else [])
    buffer_tables = []
    for data in buffers:
        vec = b.CreateByteVector(data) if data is not None else None
        b.StartObject(1)
        if vec is not None: b.PrependUOffsetTRelativeSlot(0, vec, 0)
        buffer_tables.append(b.EndObject())
    def quantization():
        b.StartVector(4, 1, 4); b.PrependFloat32(1.0); scale = b.EndVector()
        b.StartVector(8, 1, 8); b.PrependInt64(0); zero = b.EndVector()
        b.StartObject(4); b.PrependUOffsetTRelativeSlot(2, scale, 0); b.PrependUOffsetTRelativeSlot(3, zero, 0)
        return b.EndObject()
    def tensor(shape, ttype, buffer, name, quant=None):
        s = _ivec(b, shape); nm = b.CreateString(name)
        b.StartObject(5)
        b.PrependUOffsetTRelativeSlot(0, s, 0); b.PrependInt8Slot(1, ttype, 0); b.PrependUint32Slot(2, buffer, 0)
        b.PrependUOffsetTRelativeSlot(3, nm, 0)
        if quant is not None: b.PrependUOffsetTRelativeSlot(4, quant, 0)
        return b.EndObject()
    element = 0 if is_float else 3  # FLOAT32 or UINT8
    t_in = tensor([1, h, w, 3], element, 0, "image", None if is_float else quantization())
    t_shape = tensor([2], 2, 1, "shape")
    t_out = tensor([1, n], element, 0, "probability", None if is_float else quantization())
    op_in, op_out = _ivec(b, [0, 1]), _ivec(b, [2])
    b.StartObject(5); b.PrependUint32Slot(0, 0, 0); b.PrependUOffsetTRelativeSlot(1, op_in, 0); b.PrependUOffsetTRelativeSlot(2, op_out, 0); op = b.EndObject()
    b.StartVector(4, 3, 4)
    for t in (t_out, t_shape, t_in): b.PrependUOffsetTRelative(t)
    tensors = b.EndVector()
    g_in, g_out = _ivec(b, [0]), _ivec(b, [2])
    b.StartVector(4, 1, 4); b.PrependUOffsetTRelative(op); ops = b.EndVector()
    b.StartObject(5)
    b.PrependUOffsetTRelativeSlot(0, tensors, 0); b.PrependUOffsetTRelativeSlot(1, g_in, 0)
    b.PrependUOffsetTRelativeSlot(2, g_out, 0); b.PrependUOffsetTRelativeSlot(3, ops, 0)
    subgraph = b.EndObject()
    b.StartObject(4); b.PrependInt8Slot(0, 22, 0); b.PrependInt32Slot(2, 1, 1); b.PrependInt32Slot(3, 22, 0); opcode = b.EndObject()  # RESHAPE
    b.StartVector(4, 1, 4); b.PrependUOffsetTRelative(opcode); opcodes = b.EndVector()
    b.StartVector(4, 1, 4); b.PrependUOffsetTRelative(subgraph); subgraphs = b.EndVector()
    b.StartVector(4, len(buffer_tables), 4)
    for t in reversed(buffer_tables): b.PrependUOffsetTRelative(t)
    buffer_vector = b.EndVector()
    metadata = None
    if is_float:
        name = b.CreateString("TFLITE_METADATA")
        b.StartObject(2); b.PrependUOffsetTRelativeSlot(0, name, 0); b.PrependUint32Slot(1, 2, 0); entry = b.EndObject()
        b.StartVector(4, 1, 4); b.PrependUOffsetTRelative(entry); metadata = b.EndVector()
    b.StartObject(8)
    b.PrependUint32Slot(0, 3, 0); b.PrependUOffsetTRelativeSlot(1, opcodes, 0); b.PrependUOffsetTRelativeSlot(2, subgraphs, 0)
    b.PrependUOffsetTRelativeSlot(4, buffer_vector, 0)
    if metadata is not None: b.PrependUOffsetTRelativeSlot(6, metadata, 0)
    model = b.EndObject()
    b.Finish(model, file_identifier=b"TFL3")
    open(path, 'wb').write(b.Output())


def mediapipe_tensor(model, h, w, pixels, rotation_degrees=0, roi=None, float_output=False):
    """MediaPipe's [h, w, 3] input tensor for an RGB or RGBA uint8 array; roi = (l, t, r, b)."""
    options = vision.ImageClassifierOptions(base_options=mpt.BaseOptions(model_asset_path=model),
                                            score_threshold=-1e9 if float_output else 0.0)
    classifier = vision.ImageClassifier.create_from_options(options)
    image_format = {3: mp.ImageFormat.SRGB, 4: mp.ImageFormat.SRGBA}[pixels.shape[2]]
    image = mp.Image(image_format=image_format, data=np.ascontiguousarray(pixels))
    region = None if roi is None else rect_module.RectF(left=roi[0], top=roi[1], right=roi[2], bottom=roi[3])
    result = classifier.classify(image, vision.ImageProcessingOptions(rotation_degrees=rotation_degrees, region_of_interest=region))
    out = np.full(h * w * 3, np.nan, np.float64)
    for category in result.classifications[0].categories:
        out[category.index] = category.score
    assert not np.isnan(out).any()
    return out.reshape(h, w, 3).astype(np.float32 if float_output else np.uint8)
*/

/* ===== make_golden.py =====
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
*/

/* ===== make_fixtures.py =====
"""Writes the small image fixtures of ImagingTests as base64 Swift literals (Fixtures.swift).
Needs Pillow and pypng (pip install pillow pypng). Lossless fixtures encode the synthetic
pictures that TestPictures in the tests recomputes; lossy ones come with Pillow's decode.
Usage: make_fixtures.py OUT.swift"""
import base64, io, sys
import numpy as np, png
from PIL import Image
W, H = 7, 5
def rgba(x, y): return ((x*53 + y*31) & 255, (x*17 + y*71 + 40) & 255, (x*29 ^ y*43) & 255, 1 + (x*61 + y*13 + 7) % 255)
def gray(x, y): return (x*37 + y*19) & 255
def gray16(x, y): return (x*7919 + y*104729 + 12345) & 0xFFFF
def rgb16(x, y): return ((x*7919 + y*104729) & 0xFFFF, (x*3001 + y*60013 + 999) & 0xFFFF, (x*40503 ^ y*2711) & 0xFFFF)
PALETTE = [(255, 0, 0, 255), (0, 128, 255, 200), (12, 34, 56, 0), (250, 250, 250, 128), (0, 0, 0, 255), (90, 180, 45, 77)]
def index(x, y): return (x + 2*y) % 6
def pypng(**kw):
    rows = kw.pop('rows'); buf = io.BytesIO(); png.Writer(W, H, **kw).write(buf, rows); return buf.getvalue()
out = {}
out['pngRGB8'] = pypng(rows=[[c for x in range(W) for c in rgba(x, y)[:3]] for y in range(H)], greyscale=False, alpha=False, bitdepth=8)
out['pngRGBA8'] = pypng(rows=[[c for x in range(W) for c in rgba(x, y)] for y in range(H)], greyscale=False, alpha=True, bitdepth=8)
out['pngRGBA8Interlaced'] = pypng(rows=[[c for x in range(W) for c in rgba(x, y)] for y in range(H)], greyscale=False, alpha=True, bitdepth=8, interlace=True)
out['pngGray8'] = pypng(rows=[[gray(x, y) for x in range(W)] for y in range(H)], greyscale=True, bitdepth=8)
out['pngGray8Transparent'] = pypng(rows=[[gray(x, y) for x in range(W)] for y in range(H)], greyscale=True, bitdepth=8, transparent=gray(3, 2))
out['pngGray1'] = pypng(rows=[[(x + y) % 2 for x in range(W)] for y in range(H)], greyscale=True, bitdepth=1)
out['pngGray4'] = pypng(rows=[[(x + 3*y) % 16 for x in range(W)] for y in range(H)], greyscale=True, bitdepth=4)
out['pngGray16'] = pypng(rows=[[gray16(x, y) for x in range(W)] for y in range(H)], greyscale=True, bitdepth=16)
out['pngGrayAlpha8'] = pypng(rows=[[c for x in range(W) for c in (gray(x, y), rgba(x, y)[3])] for y in range(H)], greyscale=True, alpha=True, bitdepth=8)
out['pngRGB16Interlaced'] = pypng(rows=[[c for x in range(W) for c in rgb16(x, y)] for y in range(H)], greyscale=False, bitdepth=16, interlace=True)
out['pngPalette8'] = pypng(rows=[[index(x, y) for x in range(W)] for y in range(H)], palette=[p[:3] for p in PALETTE], bitdepth=8)
out['pngPalette4Alpha'] = pypng(rows=[[index(x, y) for x in range(W)] for y in range(H)], palette=PALETTE, bitdepth=4)
out['pngRGB8Transparent'] = pypng(rows=[[c for x in range(W) for c in rgba(x, y)[:3]] for y in range(H)], greyscale=False, bitdepth=8, transparent=rgba(1, 1)[:3])
rgba_img = Image.fromarray(np.array([[rgba(x, y) for x in range(W)] for y in range(H)], np.uint8), 'RGBA')
rgb_img = rgba_img.convert('RGB')
def pil(img, fmt, **kw):
    buf = io.BytesIO(); img.save(buf, fmt, **kw); return buf.getvalue()
out['webpLosslessRGB'] = pil(rgb_img, 'WEBP', lossless=True)
out['webpLosslessRGBA'] = pil(rgba_img, 'WEBP', lossless=True, exact=True)
out['webpLossyRGB'] = pil(rgb_img, 'WEBP', quality=90)
out['webpLossyRGBA'] = pil(rgba_img, 'WEBP', quality=90)
out['jpegRGB'] = pil(rgb_img, 'JPEG', quality=95)
out['jpegProgressive'] = pil(rgb_img, 'JPEG', quality=95, progressive=True)
out['jpegGray'] = pil(Image.fromarray(np.array([[gray(x, y) for x in range(W)] for y in range(H)], np.uint8), 'L'), 'JPEG', quality=95)
out['jpegCMYK'] = pil(rgb_img.convert('CMYK'), 'JPEG', quality=95)
exif = Image.Exif(); exif[0x0112] = 1
out['jpegExif'] = pil(rgb_img, 'JPEG', quality=95, exif=exif.tobytes())
out['pngExif'] = pil(rgb_img, 'PNG', exif=exif.tobytes())
out['webpExif'] = pil(rgb_img, 'WEBP', lossless=True, exif=exif.tobytes())
lossy = ['webpLossyRGB', 'webpLossyRGBA', 'jpegRGB', 'jpegProgressive', 'jpegGray', 'jpegCMYK']
with open(sys.argv[1], 'w') as f:
    f.write('// Generated by make_fixtures.py (its text is in GoldenScripts.swift); do not edit by hand.\n')
    f.write('// Small encoded images (7x5 pixels) and, for lossy ones, Pillow 13 decodes (RGBA, row-major).\n\n')
    f.write('enum Fixtures {\n')
    for name, data in out.items():
        f.write(f'    /// {len(data)} bytes.\n    static let {name} = "{base64.b64encode(data).decode()}"\n')
    for name in lossy:
        dec = np.asarray(Image.open(io.BytesIO(out[name])).convert('RGBA')).reshape(-1).tolist()
        f.write(f'    /// Pillow\'s decode of `{name}` as RGBA.\n    static let {name}Pillow: [UInt8] = {dec}\n')
    f.write('}\n')
*/

/// Nothing to compile: this file only carries the generator scripts above.
enum GoldenScripts {}
