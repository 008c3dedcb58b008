#!/usr/bin/env python3
"""Writes Upload Inspector's own conformance corpus: bodies and manifest.json, in the shared corpus's format.

Every expectation here comes from the parts this script put into the body, never from parsing it, so the corpus
is an oracle independent of the parser under test. One case is a real curl capture: the script runs curl -F against
a one-shot socket server and keeps exactly the bytes curl sent. Run it again only to add cases; the files it wrote
are committed, and the tests read those.

Usage: tests/corpus/make-corpus.py   (writes next to itself; needs python3, and curl for the captured case)
"""
import hashlib
import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
CRLF = b"\r\n"
cases = []


def part_expectation(name, filename, content_type, data, nested=None):
    part = {"name": name, "filename": filename, "content_type": content_type, "size": len(data),
            "sha256": hashlib.sha256(data).hexdigest()}
    try:
        if len(data) <= 200:
            part["text"] = data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    if nested is not None:
        part["nested"] = nested
    return part


def disposition(name, filename):
    value = b"form-data"
    if name is not None:
        value += b'; name="' + name.encode() + b'"'
    if filename is not None:
        value += b'; filename="' + filename.encode() + b'"'
    return b"Content-Disposition: " + value


def body_of(boundary, parts, preamble=b"", epilogue=b"", close=True):
    """parts: (header lines, data). Returns the body bytes."""
    out = preamble
    for headers, data in parts:
        out += b"--" + boundary + CRLF + b"".join(h + CRLF for h in headers) + CRLF + data + CRLF
    if close:
        out += b"--" + boundary + b"--" + CRLF + epilogue
    return out


def form_case(slug, note, boundary, fields, quoted=False, preamble=b"", epilogue=b""):
    """fields: (name, filename, content type or None, data)."""
    parts, expect = [], []
    for name, filename, content_type, data in fields:
        headers = [disposition(name, filename)]
        if content_type is not None:
            headers.append(b"Content-Type: " + content_type.encode())
        parts.append((headers, data))
        expect.append(part_expectation(name, filename, content_type, data))
    write_case(slug, note, boundary, body_of(boundary, parts, preamble, epilogue), {"ok": True, "parts": expect},
               quoted=quoted)


def write_case(slug, note, boundary, body, expect, quoted=False, media="multipart/form-data"):
    path = os.path.join("own", slug + ".bin")
    with open(os.path.join(HERE, path), "wb") as f:
        f.write(body)
    b = boundary.decode()
    cases.append({"id": "own/" + slug, "file": path,
                  "content_type": media + "; boundary=" + ('"' + b + '"' if quoted else b),
                  "expect": expect, "notes": note, "source": "written by tests/corpus/make-corpus.py",
                  "license": "same as Upload Inspector"})


def synthetic_cases():
    B = b"XyZ-boundary-42"
    form_case("single-field", "the smallest useful form: one field", B, [("a", None, None, b"hello")])
    form_case("preamble-epilogue", "RFC 2046 preamble before the first delimiter and epilogue after the close one",
              B, [("a", None, None, b"one"), ("b", None, None, b"two")],
              preamble=b"This is a preamble; it is not part of any part.\r\n",
              epilogue=b"and an epilogue\r\n")
    form_case("boundary-ends-in-dashes", "a boundary whose last characters are dashes, so its close delimiter "
              "ends in four", b"--abc--", [("a", None, None, b"x"), ("f", "d.txt", "text/plain", b"--abc-\r\n--ab")])
    form_case("false-delimiters", "data holding delimiter prefixes: after CRLF, without CRLF, and a partial one "
              "right before the real delimiter", B,
              [("f", "f.bin", "application/octet-stream",
                b"line\r\n--XyZ-bound\r\nx--XyZ-boundary-42 not after a line break\r\n-\r\n--\r\n--XyZ-boundary-4"),
               ("g", None, None, b"after")])
    form_case("held-cr", "part data that ends in CR and in CR CR, so a CR must be held until the next byte says "
              "whether it begins the delimiter", B,
              [("a", None, None, b"ends in CR\r"), ("b", None, None, b"two CRs\r\r"), ("c", None, None, b"\r")])
    form_case("empty-parts", "an empty field and an empty file", B,
              [("empty", None, None, b""), ("nofile", "", "application/octet-stream", b"")])
    form_case("quoted-boundary", "a quoted boundary with space, colon, equals and question mark (RFC 2046 bchars)",
              b"simple boundary:=?x", [("a", None, None, b"quoted")], quoted=True)
    form_case("utf8-names", "UTF-8 in field name and filename, as browsers send them", B,
              [("pr\u00e9nom", None, None, "Zo\u00eb".encode()),
               ("cv", "na\u00efve r\u00e9sum\u00e9.txt", "text/plain; charset=utf-8", "\u2713 done\n".encode())])
    form_case("many-parts", "fifty small fields", B, [("f%02d" % i, None, None, b"v%d" % i) for i in range(50)])
    everything = bytes(range(256)) * 16 + b"\r\n--XyZ\r\n--XyZ-boundary-4\r"
    form_case("binary", "every byte value, then delimiter prefixes and a CR at the very end", B,
              [("bin", "all.bin", "application/octet-stream", everything)])

    # Header variations: lower-case names, extra headers, a charset parameter.
    headers = [b'content-disposition: form-data; name="lower"', b"content-type: text/plain; charset=iso-8859-1",
               b"X-Extra: kept"]
    body = body_of(B, [(headers, b"caf\xe9")])
    write_case("header-case", "header names in lower case and an extra header", B, body,
               {"ok": True, "parts": [part_expectation("lower", None, "text/plain; charset=iso-8859-1", b"caf\xe9")]})

    # multipart/mixed inside a form field (RFC 2388's way of sending several files under one name).
    inner_b = b"inner-BB"
    inner_parts = [([b'Content-Disposition: file; filename="a.txt"', b"Content-Type: text/plain"], b"file a"),
                   ([b'Content-Disposition: file; filename="b.txt"', b"Content-Type: text/plain"], b"file b")]
    inner = body_of(inner_b, inner_parts)[:-2]  # the outer CRLF before the next delimiter belongs to the outer body
    outer_headers = [disposition("files", None), b"Content-Type: multipart/mixed; boundary=inner-BB"]
    body = body_of(B, [([disposition("title", None)], b"two files"), (outer_headers, inner)])
    nested = {"boundary": "inner-BB", "parts": [part_expectation(None, "a.txt", "text/plain", b"file a"),
                                                part_expectation(None, "b.txt", "text/plain", b"file b")]}
    write_case("nested-mixed", "multipart/mixed nested in a form field", B, body,
               {"ok": True, "parts": [part_expectation("title", None, None, b"two files"),
                                      part_expectation("files", None, "multipart/mixed; boundary=inner-BB", inner,
                                                       nested)]})

    # Bodies that must be rejected (strict) or flagged (lenient).
    body = body_of(B, [([disposition("a", None)], b"cut off")], close=False)[:-2]
    write_case("eof-inside-part", "the body ends inside a part: no delimiter follows its data", B, body,
               {"ok": False, "error_kind": "unexpected end of input"})
    write_case("no-delimiter", "the body never mentions the boundary", B, b"just some text\r\n",
               {"ok": False, "error_kind": "no delimiter"})
    body = (b"--" + B + b"\n" + disposition("a", None) + b"\n\nbare line feeds\n--" + B + b"--\n")
    write_case("bare-lf", "LF alone where CRLF belongs", B, body,
               {"ok": False, "error_kind": "bare line feed (lenient mode accepts it with a diagnostic)"})


class OneShotServer:
    """Accepts one request, keeps its head and body, answers 200 and closes."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(1)
        self.port = self.sock.getsockname()[1]
        self.head, self.body = b"", b""
        self.thread = threading.Thread(target=self.serve)
        self.thread.start()

    def serve(self):
        conn, _ = self.sock.accept()
        data = b""
        while b"\r\n\r\n" not in data:
            data += conn.recv(65536)
        self.head, rest = data.split(b"\r\n\r\n", 1)
        length = next(int(line.split(b":")[1]) for line in self.head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:"))
        while len(rest) < length:
            rest += conn.recv(65536)
        self.body = rest
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        conn.close()
        self.sock.close()


def curl_case():
    if shutil.which("curl") is None:
        print("curl not found: the curl capture is left as it is")
        return
    tmp = tempfile.mkdtemp()
    png = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                        "1f15c4890000000d49444154789c63f8cfc0f01f0005000201a3e3b6b60000000049454e44ae426082")
    blob = bytes((i * 7 + 3) % 256 for i in range(3000))
    with open(os.path.join(tmp, "dot.png"), "wb") as f:
        f.write(png)
    with open(os.path.join(tmp, "blob.bin"), "wb") as f:
        f.write(blob)
    server = OneShotServer()
    subprocess.run(["curl", "-sS", "-o", "/dev/null", "-F", "note=hello from curl", "-F", "img=@dot.png",
                    "-F", "data=@blob.bin;type=application/x-test", "http://127.0.0.1:%d/file-part" % server.port],
                   cwd=tmp, check=True)
    server.thread.join()
    shutil.rmtree(tmp)
    content_type = next(line.split(b":", 1)[1].strip().decode() for line in server.head.split(b"\r\n")
                        if line.lower().startswith(b"content-type:"))
    version = subprocess.run(["curl", "--version"], capture_output=True, text=True).stdout.split()[1]
    path = os.path.join("own", "curl-field-and-files.bin")
    with open(os.path.join(HERE, path), "wb") as f:
        f.write(server.body)
    cases.append({"id": "own/curl-field-and-files", "file": path, "content_type": content_type,
                  "expect": {"ok": True, "parts": [
                      part_expectation("note", None, None, b"hello from curl"),
                      part_expectation("img", "dot.png", "image/png", png),
                      part_expectation("data", "blob.bin", "application/x-test", blob)]},
                  "notes": "real capture: curl %s -F note=... -F img=@dot.png -F data=@blob.bin;type=..." % version,
                  "source": "captured by tests/corpus/make-corpus.py", "license": "same as Upload Inspector"})


def main():
    os.makedirs(os.path.join(HERE, "own"), exist_ok=True)
    synthetic_cases()
    curl_case()
    with open(os.path.join(HERE, "manifest.json"), "w") as f:
        json.dump({"version": 1, "cases": cases}, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print("%d cases written to %s" % (len(cases), HERE))


if __name__ == "__main__":
    main()
