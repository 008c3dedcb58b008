#!/usr/bin/env python3
"""A Flask (werkzeug) upload endpoint as tutorials write it, for the probe's tests: a real parser no one here wrote.

usage: flask_probe.py; prints the port it listens on (127.0.0.1), then serves until killed (threaded, as
concurrent probes need).

POST /upload: werkzeug parses the form (file parts over 500 KB go to temporary files, not memory), then the
answer gives the size of the part named "file" as werkzeug read it: {"file_size": N, "fields": N}.
"""
import sys

from flask import Flask, jsonify, request
from werkzeug.serving import make_server

app = Flask(__name__)


@app.route("/upload", methods=["POST"])
def upload():
    f = request.files.get("file")
    size = 0
    if f is not None:
        while True:
            chunk = f.stream.read(1 << 20)
            if not chunk:
                break
            size += len(chunk)
    return jsonify(file_size=size, fields=len(request.form))


def main():
    server = make_server("127.0.0.1", 0, app, threaded=True)
    print(server.server_port, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
