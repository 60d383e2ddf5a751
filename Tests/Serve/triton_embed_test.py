"""Triton's Python HTTP client against `vision-tasks serve` serving an embedder: burger.jpg and
sparrow.jpg in one request, in the JSON form and the binary form, must come back as an FP32
output "embedding" of shape [2, D] equal to `vision-tasks embed --format json`'s floats; the
model metadata must say it embeds. Exits non-zero (an assertion) on any difference.

usage: triton_embed_test.py URL MODEL_NAME EXPECTED_JSON IMAGES_DIR
"""

import base64
import json
import sys
from pathlib import Path

import numpy as np
import tritonclient.http as httpclient

url, name, expected_path, images = sys.argv[1], sys.argv[2], sys.argv[3], Path(sys.argv[4])
expected = np.array(
    [record["embeddings"][0]["floatEmbedding"] for record in json.loads(Path(expected_path).read_text())],
    dtype=np.float32)
client = httpclient.InferenceServerClient(url=url.removeprefix("http://"))

model = client.get_model_metadata(name)
assert model["task"] == "embed", model
assert model["outputs"] == [{"name": "embedding", "datatype": "FP32", "shape": [-1, expected.shape[1]]}], model

encoded = [(images / n).read_bytes() for n in ("burger.jpg", "sparrow.jpg")]
for binary in (False, True):
    # The JSON form carries the photos as base64 text (the server's JSON BYTES convention).
    image = httpclient.InferInput("image", [2], "BYTES")
    elements = encoded if binary else [base64.b64encode(e) for e in encoded]
    image.set_data_from_numpy(np.array(elements, dtype=np.object_), binary_data=binary)
    output = httpclient.InferRequestedOutput("embedding", binary_data=binary)
    got = client.infer(name, [image], outputs=[output]).as_numpy("embedding")
    form = "binary" if binary else "json"
    assert got.dtype == np.float32 and got.shape == expected.shape, (form, got.dtype, got.shape)
    assert np.array_equal(got, expected), (form, np.abs(got - expected).max())
    print(f"embedding {form}: {list(got.shape)} {got.dtype}, equal to embed's")
print("triton embed: ok")
