#!/usr/bin/env python3
"""A static model server for the download tests, with injected faults.

    model_server.py serve ROOT   serves ROOT on 127.0.0.1 at a free port, prints the port on
                                 the first line of stdout, appends "PATH" to ROOT/../requests.log
                                 for every request, and applies ROOT/../faults.json
                                 ({"/path": "500" | "drop" | "stall" | "no-length" | "redirect:URL" | "hold" |
                                 "flood" | "flood-length"}) read at each request. "hold" sends half the body,
                                 then a byte a second, and the rest once ROOT/../release exists; "flood" streams zeros without
                                 Content-Length, "flood-length" announcing them, up to 1 GiB, and both append
                                 "PATH BYTES" to ROOT/../sent.log once the client stops reading.
                                 Stops when stdin closes or on SIGTERM.
    model_server.py zip OUT SPEC writes the zip OUT from the JSON list SPEC of entries:
                                 {"name", "file": path} | {"name", "text"} |
                                 {"name", "symlink": target} | {"name", "zeros": count}
"""
import http.server
import json
import os
import sys
import threading
import time
import zipfile


class Handler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass

    def do_GET(self):
        state = os.path.dirname(os.path.abspath(self.directory))
        with open(os.path.join(state, "requests.log"), "a") as log:
            log.write(self.path + "\n")
        fault = self.fault(state)
        if fault == "500":
            self.send_error(500, "injected fault")
        elif fault in ("drop", "stall"):
            self.partial_body(stall=fault == "stall")
        elif fault == "no-length":
            self.unannounced_body()
        elif fault == "hold":
            self.held_body(state)
        elif fault in ("flood", "flood-length"):
            self.flood(state, announced=fault == "flood-length")
        elif fault and fault.startswith("redirect:"):
            self.send_response(302)
            self.send_header("Location", fault[len("redirect:"):])
            self.send_header("Content-Length", "0")
            self.end_headers()
        else:
            super().do_GET()

    def fault(self, state):
        try:
            with open(os.path.join(state, "faults.json")) as file:
                return json.load(file).get(self.path)
        except FileNotFoundError:
            return None

    def first_half(self):
        """Announces the whole file, sends its first half; returns the whole body."""
        with open(self.translate_path(self.path), "rb") as file:
            body = file.read()
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body[: len(body) // 2])
        self.wfile.flush()
        return body

    def partial_body(self, stall):
        self.first_half()
        if stall:
            # Holds the connection open until the client gives up and closes it.
            while self.rfile.read(1):
                pass
        self.close_connection = True


    def held_body(self, state):
        body = self.first_half()
        # A byte a second while held, so that a client held longer than its stall timeout (a
        # busy machine) keeps its transfer rather than retrying it.
        rest, sent, last = body[len(body) // 2 :], 0, time.monotonic()
        release = os.path.join(state, "release")
        while not os.path.exists(release):
            time.sleep(0.01)
            if time.monotonic() - last >= 1 and sent < len(rest) - 1:
                self.wfile.write(rest[sent : sent + 1])
                self.wfile.flush()
                sent, last = sent + 1, time.monotonic()
        self.wfile.write(rest[sent:])
        self.wfile.flush()

    def flood(self, state, announced):
        limit = 1 << 30
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        if announced:
            self.send_header("Content-Length", str(limit))
        else:
            self.send_header("Connection", "close")
        self.end_headers()
        sent = 0
        chunk = bytes(1 << 16)
        try:
            while sent < limit:
                self.wfile.write(chunk)
                sent += len(chunk)
            self.wfile.flush()
        except OSError:
            pass
        with open(os.path.join(state, "sent.log"), "a") as log:
            log.write("%s %d\n" % (self.path, sent))
        self.close_connection = True

    def unannounced_body(self):
        # The whole body, delimited by closing the connection, without Content-Length.
        with open(self.translate_path(self.path), "rb") as file:
            body = file.read()
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)
        self.close_connection = True


def serve(root):
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), lambda *args: Handler(*args, directory=root))
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()
    server.shutdown()


def make_zip(out, spec):
    with open(spec) as file:
        entries = json.load(file)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for entry in entries:
            info = zipfile.ZipInfo(entry["name"])
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3  # Unix, so the mode in external_attr counts
            if "symlink" in entry:
                info.external_attr = 0o120777 << 16
                archive.writestr(info, entry["symlink"])
                continue
            info.external_attr = 0o100644 << 16
            if "file" in entry:
                with open(entry["file"], "rb") as source:
                    data = source.read()
            elif "zeros" in entry:
                data = bytes(entry["zeros"])
            else:
                data = entry["text"].encode()
            archive.writestr(info, data)


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(sys.argv[2])
    else:
        make_zip(sys.argv[2], sys.argv[3])
