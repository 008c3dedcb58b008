#!/usr/bin/python3
"""Hostile HTTP/2 clients that write raw frames (Debian's python3-hpack encodes the header blocks), for the
listener's bounds on what a client may make it do. Each prints one line: what the server did.

Usage: h2_flood.py PORT ACTION COUNT
  continuation COUNT  one HEADERS without END_HEADERS, then COUNT CONTINUATION frames of one small field each
  settings COUNT      COUNT empty SETTINGS frames, never reading the acknowledgements
  ping COUNT          COUNT PING frames, never reading the acknowledgements
  empty-data COUNT    one upload stream, then COUNT DATA frames without a byte or END_STREAM
  streams COUNT       COUNT uploads to /capture opened at once, each sending nothing after its HEADERS, then a PING
  overrun COUNT       an upload stream with content-length 10, then COUNT bytes of DATA
  big-frame COUNT     an upload to /capture, 1,000 bytes of DATA, then one DATA frame of COUNT bytes
  slow-read COUNT     SETTINGS_INITIAL_WINDOW_SIZE=0 (no window for our answers, never opened), COUNT GETs;
                      prints "reset N" once N streams were reset with CANCEL, or the verdict at the close
Prints "goaway CODE" (the server ended the connection saying why), "closed" (it closed without a GOAWAY),
"refused N" (streams reset with REFUSED_STREAM), or "reset CODE" (the stream reset).
"""
import socket
import struct
import sys

import hpack

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, RST_STREAM, SETTINGS, PING, GOAWAY, CONTINUATION = 0, 1, 3, 4, 6, 7, 9
END_STREAM, END_HEADERS = 0x1, 0x4
ERRORS = {0: "NO_ERROR", 1: "PROTOCOL_ERROR", 2: "INTERNAL_ERROR", 3: "FLOW_CONTROL_ERROR", 4: "SETTINGS_TIMEOUT",
          5: "STREAM_CLOSED", 6: "FRAME_SIZE_ERROR", 7: "REFUSED_STREAM", 8: "CANCEL", 9: "COMPRESSION_ERROR",
          10: "CONNECT_ERROR", 11: "ENHANCE_YOUR_CALM", 12: "INADEQUATE_SECURITY", 13: "HTTP_1_1_REQUIRED"}


def frame(kind, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def upload_headers(port, encoder, length=None, path="/discard"):
    fields = [(":method", "POST"), (":path", path), (":scheme", "http"), (":authority", f"127.0.0.1:{port}")]
    if length is not None:
        fields.append(("content-length", str(length)))
    if path == "/capture":
        fields.append(("content-type", "multipart/form-data; boundary=b"))
    return encoder.encode(fields)


def send_all(sock, data):
    try:
        sock.sendall(data)
        return True
    except (BrokenPipeError, ConnectionResetError):
        return False


def read_frames(sock):
    """Frames the server sends until it closes: (type, flags, stream, payload) each."""
    buffer = b""
    try:
        while chunk := sock.recv(65536):
            buffer += chunk
            while len(buffer) >= 9:
                length = int.from_bytes(buffer[:3], "big")
                if len(buffer) < 9 + length:
                    break
                kind, flags = buffer[3], buffer[4]
                stream = int.from_bytes(buffer[5:9], "big") & 0x7FFFFFFF
                yield kind, flags, stream, buffer[9:9 + length]
                buffer = buffer[9 + length:]
    except ConnectionResetError:
        return


def verdict(sock, stop_at_reset=False):
    refused = 0
    for kind, _flags, _stream, payload in read_frames(sock):
        if kind == GOAWAY:
            return f"goaway {ERRORS.get(int.from_bytes(payload[4:8], 'big'), 'other')}"
        if kind == RST_STREAM:
            code = int.from_bytes(payload[:4], "big")
            if code == 7:
                refused += 1
            elif stop_at_reset:
                return f"reset {ERRORS.get(code, 'other')}"
    return f"refused {refused}" if refused else "closed"


def main():
    port, action, count = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    sock = socket.create_connection(("127.0.0.1", port))
    sock.settimeout(60)
    encoder = hpack.Encoder()
    out = PREFACE + frame(SETTINGS, 0, 0)
    if action == "continuation":
        out += frame(HEADERS, 0, 1, upload_headers(port, encoder))
        field = encoder.encode([("x-more", "a")])
        out += b"".join(frame(CONTINUATION, 0, 1, field) for _ in range(count))
    elif action in ("settings", "ping"):
        one = frame(SETTINGS, 0, 0) if action == "settings" else frame(PING, 0, 0, b"12345678")
        out += one * count
    elif action == "empty-data":
        out += frame(HEADERS, END_HEADERS, 1, upload_headers(port, encoder))
        out += frame(DATA, 0, 1) * count
    elif action == "streams":
        for i in range(count):
            out += frame(HEADERS, END_HEADERS, 1 + 2 * i, upload_headers(port, encoder, 100, "/capture"))
    elif action == "big-frame":
        out += frame(HEADERS, END_HEADERS, 1, upload_headers(port, encoder, 200000, "/capture"))
        out += frame(DATA, 0, 1, b"x" * 1000) + frame(DATA, 0, 1, b"y" * count)
    elif action == "slow-read":
        out = PREFACE + frame(SETTINGS, 0, 0, struct.pack(">HI", 4, 0))  # INITIAL_WINDOW_SIZE 0
        for i in range(count):
            fields = [(":method", "GET"), (":path", "/captures"), (":scheme", "http"),
                      (":authority", f"127.0.0.1:{port}")]
            out += frame(HEADERS, END_HEADERS | END_STREAM, 1 + 2 * i, encoder.encode(fields))
    elif action == "overrun":
        out += frame(HEADERS, END_HEADERS, 1, upload_headers(port, encoder, 10))
        out += frame(DATA, END_STREAM, 1, b"x" * count)
    else:
        raise SystemExit(f"unknown action {action}")
    if action in ("settings", "ping"):  # written without reading a byte of what the server sends back
        for start in range(0, len(out), 1 << 16):
            if not send_all(sock, out[start:start + (1 << 16)]):
                break
    else:
        send_all(sock, out)
    if action == "slow-read":
        cancelled = 0
        for kind, _flags, _stream, payload in read_frames(sock):
            if kind == RST_STREAM and int.from_bytes(payload[:4], "big") == 8:
                cancelled += 1
                if cancelled == count:
                    break
        print(f"reset {cancelled}")
        return
    if action == "streams":
        # A PING after them is answered once the server has read every HEADERS, but its answer goes out ahead of
        # the resets queued with it (nghttp2 sends acknowledgements first); a second PING's comes after them.
        send_all(sock, frame(PING, 0, 0, b"afterall"))
        refused = 0
        for kind, flags, _stream, payload in read_frames(sock):
            if kind == RST_STREAM and int.from_bytes(payload[:4], "big") == 7:
                refused += 1
            if kind == PING and flags & 0x1 and payload == b"afterall":
                send_all(sock, frame(PING, 0, 0, b"thenthis"))
            if kind == PING and flags & 0x1 and payload == b"thenthis":
                break
        print(f"refused {refused}")
        return
    print(verdict(sock, stop_at_reset=action == "overrun"))


if __name__ == "__main__":
    main()
