"""Triton's Python HTTP client against `vision-tasks serve`: burger.jpg and sparrow.jpg in one
request, in the JSON form and the binary form, must give the CLI's categories and scores; the
server and model metadata must parse. Exits non-zero (an assertion) on any difference.

usage: triton_client_test.py URL EXPECTED_JSON IMAGES_DIR
"""

import base64
import json
import sys
from pathlib import Path

import numpy as np
import tritonclient.http as httpclient

url, expected_path, images = sys.argv[1], sys.argv[2], Path(sys.argv[3])
expected = json.loads(Path(expected_path).read_text())
client = httpclient.InferenceServerClient(url=url.removeprefix("http://"))

assert client.is_server_live() and client.is_server_ready(), "server not live/ready"
server = client.get_server_metadata()
assert "binary_tensor_data" in server["extensions"], server
model = client.get_model_metadata("mobilenet")
assert model["name"] == "mobilenet" and model["inputs"][0]["datatype"] == "BYTES", model
assert client.is_model_ready("mobilenet")

encoded = [(images / name).read_bytes() for name in ("burger.jpg", "sparrow.jpg")]


def check(result, form):
    elements = result.as_numpy("classifications")
    assert elements.shape == (2,), (form, elements.shape)
    for element, want in zip(elements, expected):
        got = json.loads(element)
        assert got["classifications"] == want["classifications"], (form, got, want)
    print(f"{form}: {[json.loads(e)['classifications'][0]['categories'][0]['categoryName'] for e in elements]}")


# JSON form: BYTES elements must be UTF-8 strings in JSON, so the images go as base64.
json_input = httpclient.InferInput("image", [2], "BYTES")
json_input.set_data_from_numpy(np.array([base64.b64encode(e) for e in encoded], dtype=np.object_), binary_data=False)
json_output = httpclient.InferRequestedOutput("classifications", binary_data=False)
check(client.infer("mobilenet", [json_input], outputs=[json_output]), "json")

# Binary form (the client's default): raw bytes, length-prefixed.
binary_input = httpclient.InferInput("image", [2], "BYTES")
binary_input.set_data_from_numpy(np.array(encoded, dtype=np.object_), binary_data=True)
binary_output = httpclient.InferRequestedOutput("classifications", binary_data=True)
check(client.infer("mobilenet", [binary_input], outputs=[binary_output]), "binary")

# Classification extension: the top 3 as "score:index:label".
top = httpclient.InferRequestedOutput("classifications", binary_data=True, class_count=3)
result = client.infer("mobilenet", [binary_input], outputs=[top]).as_numpy("classifications")
for row, want in zip(result, expected):
    categories = want["classifications"][0]["categories"][:3]
    strings = [s.decode() if isinstance(s, bytes) else s for s in row]
    assert [s.split(":", 2)[1:] for s in strings] == [[str(c["index"]), c["categoryName"]] for c in categories], strings
    assert [float(s.split(":")[0]) for s in strings] == [c["score"] for c in categories], strings
print("classification:", [s.decode() if isinstance(s, bytes) else s for s in result[0]])
print("triton client: ok")
