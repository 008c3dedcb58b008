#!/usr/bin/env python3
"""Small upstream servers for the forward-mode tests, standard library only, on 127.0.0.1.

usage: upstreams.py MODE [ARG]...; prints the port it listens on, then serves until killed.

  echo                answers 200 with JSON: the body's size and SHA-256 and the request head as received
  slow RATE DELAY     reads bodies at RATE bytes/s through a small receive buffer, waits DELAY seconds, then
                      answers as echo (the forwarder's server time should come out as DELAY)
  reject AFTER        reads AFTER body bytes, then answers 413 (a 10 KiB text body) and closes, the rest unread
  close AFTER         reads AFTER body bytes, then closes without a word
  silent              reads the whole body and never answers
  sleepy DELAY        waits DELAY seconds before reading anything, then answers as echo
  big SIZE            answers every request with SIZE bytes of text, keeping the connection
  once LOG            answers a connection's first request as echo, then reads the next head and closes without
                      an answer (an idle timeout that came as the request did); each request line goes to LOG
  http10              answers as echo, but as HTTP/1.0 (no keep-alive), and closes 0.2 s later
  silent-reader       reads the request head and nothing more, and never answers
  log FILE            appends every byte it receives to FILE and answers nothing (what a smuggled request would
                      reach: the test reads FILE)
  raw FILE [hold]     reads the request, then sends FILE's bytes as its whole answer and closes (with hold: keeps
                      the connection open, sending nothing more); a NUL SPLIT NUL in FILE is a 300 ms pause
"""
import hashlib
import json
import socket
import ssl
import sys
import threading
import time


def read_head(conn, buffered):
    while b"\r\n\r\n" not in buffered:
        data = conn.recv(65536)
        if not data:
            return None, b""
        buffered += data
    head, rest = buffered.split(b"\r\n\r\n", 1)
    return head.decode("latin-1"), rest


def header(head, name):
    for line in head.split("\r\n")[1:]:
        key, _, value = line.partition(":")
        if key.strip().lower() == name:
            return value.strip()
    return None


class Body:
    """Reads a request body (Content-Length or chunked), optionally at a limited rate, up to a byte limit."""

    def __init__(self, conn, rest, rate=None):
        self.conn, self.buffered, self.rate = conn, rest, rate
        self.count, self.digest = 0, hashlib.sha256()

    def _more(self):
        if self.rate:
            time.sleep(16384 / self.rate)
            data = self.conn.recv(16384)
        else:
            data = self.conn.recv(262144)
        if not data:
            raise EOFError
        self.buffered += data

    def _take(self, n):
        while len(self.buffered) < n:
            self._more()
        out, self.buffered = self.buffered[:n], self.buffered[n:]
        return out

    def _line(self):
        while b"\r\n" not in self.buffered:
            self._more()
        line, self.buffered = self.buffered.split(b"\r\n", 1)
        return line

    def _keep(self, data):
        self.count += len(data)
        self.digest.update(data)

    def read(self, head, limit=None):
        """Reads the body; with limit, stops once that many bytes were read (the rest left unread)."""
        length = header(head, "content-length")
        if header(head, "transfer-encoding"):
            while True:
                size = int(self._line().split(b";")[0], 16)
                if size == 0:
                    while self._line():
                        pass
                    return
                left = size
                while left:
                    piece = self._take(min(left, 65536))
                    self._keep(piece)
                    left -= len(piece)
                    if limit is not None and self.count >= limit:
                        return
                self._take(2)
        left = int(length or 0)
        while left:
            if not self.buffered:
                self._more()
            piece = self.buffered[:left]
            self.buffered = self.buffered[len(piece):]
            self._keep(piece)
            left -= len(piece)
            if limit is not None and self.count >= limit:
                return


def answer(conn, status, body, content_type="application/json", close=False, version="1.1"):
    reason = {200: "OK", 413: "Payload Too Large"}[status]
    conn.sendall(f"HTTP/{version} {status} {reason}\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\n"
                 f"{'Connection: close' + chr(13) + chr(10) if close else ''}\r\n".encode() + body)


def serve(conn, mode, args):
    rest = b""
    if mode == "silent-reader":
        with conn:
            read_head(conn, b"")
            time.sleep(3600)
        return
    if mode == "log":
        with conn, open(args[0], "ab") as log:
            while data := conn.recv(65536):
                log.write(data)
                log.flush()
        return
    if mode == "once":
        with conn, open(args[0], "a") as log:
            head, rest = read_head(conn, rest)
            while head is not None:
                log.write(head.split("\r\n")[0] + "\n")
                log.flush()
                if mode == "closing":
                    return
                body = Body(conn, rest)
                body.read(head)
                answer(conn, 200, json.dumps({"bytes": body.count}).encode())
                mode = "closing"
                head, rest = read_head(conn, body.buffered)
        return
    with conn:
        while True:
            if mode == "sleepy":
                time.sleep(float(args[0]))
            head, rest = read_head(conn, rest)
            if head is None:
                return
            if (header(head, "expect") or "").lower() == "100-continue":
                conn.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
            body = Body(conn, rest, float(args[0]) if mode == "slow" else None)
            try:
                if mode in ("reject", "close"):
                    body.read(head, limit=int(args[0]))
                    if mode == "reject":
                        text = (b"too large: this server takes 1 MiB at most\n" * 250)[:10240]
                        answer(conn, 413, text, "text/plain", close=True)
                        conn.shutdown(socket.SHUT_WR)
                        time.sleep(0.5)
                    return
                body.read(head)
            except EOFError:
                return
            rest = body.buffered
            if mode == "raw":
                for i, piece in enumerate(open(args[0], "rb").read().split(b"\0SPLIT\0")):
                    if i:
                        time.sleep(0.3)
                    conn.sendall(piece)
                if len(args) > 1:
                    time.sleep(3600)
                return
            if mode == "silent":
                time.sleep(3600)
                return
            if mode == "slow":
                time.sleep(float(args[1]))
            if mode == "big":
                answer(conn, 200, b"x" * int(args[0]), "text/plain")
                continue
            reply = {"bytes": body.count, "sha256": body.digest.hexdigest(), "head": head}
            if mode == "http10":
                answer(conn, 200, json.dumps(reply).encode(), version="1.0")
                time.sleep(0.2)
                return
            answer(conn, 200, json.dumps(reply).encode())
            if (header(head, "connection") or "").lower() == "close":
                return


def serve_tls(context, conn, mode, args):
    try:
        conn = context.wrap_socket(conn, server_side=True)
    except (ssl.SSLError, OSError):
        return
    serve(conn, mode, args)


def main():
    mode, args = sys.argv[1], sys.argv[2:]
    context = None
    if mode == "tls":  # tls CERT KEY MODE ARGS...: the same server over TLS
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args[0], args[1])
        mode, args = args[2], args[3:]
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if mode in ("slow", "reject"):  # accepted sockets inherit it: little waits in its kernel
        server.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16384)
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    print(server.getsockname()[1], flush=True)
    while True:
        conn, _ = server.accept()
        if context:
            threading.Thread(target=serve_tls, args=(context, conn, mode, args), daemon=True).start()
        else:
            threading.Thread(target=serve, args=(conn, mode, args), daemon=True).start()


if __name__ == "__main__":
    main()
