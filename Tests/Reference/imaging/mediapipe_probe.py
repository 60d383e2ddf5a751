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
