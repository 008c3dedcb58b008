#!/usr/bin/env python3
"""A Flask (werkzeug) upload endpoint, as a real server of another stack sees our sender's requests.

usage: flask_upload.py; prints the port it listens on (127.0.0.1), then serves until killed.

POST, PUT or PATCH /upload: answers 401 without "Authorization: Bearer s3cret" or Basic user:pa55, 403 without
"X-CSRF-Token: tok", else 200 with JSON: the method, the auth scheme, each file part (filename, size, SHA-256)
and the form fields, as werkzeug's multipart parser read them.
"""
import base64
import hashlib
import sys

from flask import Flask, jsonify, request
from werkzeug.serving import make_server

app = Flask(__name__)


@app.route("/upload", methods=["POST", "PUT", "PATCH"])
def upload():
    auth = request.headers.get("Authorization", "")
    basic = "Basic " + base64.b64encode(b"user:pa55").decode()
    if auth not in ("Bearer s3cret", basic):
        return jsonify(error="unauthorized"), 401
    if request.headers.get("X-CSRF-Token") != "tok":
        return jsonify(error="csrf"), 403
    files = {}
    for name, f in request.files.items():
        data = f.read()
        files[name] = {"filename": f.filename, "size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    return jsonify(method=request.method, auth=auth.split(" ")[0], files=files, form=request.form.to_dict())


if __name__ == "__main__":
    server = make_server("127.0.0.1", 0, app, threaded=True)
    print(server.server_port, flush=True)
    server.serve_forever()
