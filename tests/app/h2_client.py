#!/usr/bin/python3
"""A hand-driven HTTP/2 client (Debian's python3-h2) for what real clients do rarely: a stream reset mid-upload.

Usage: h2_client.py PORT reset BYTES  -- POSTs a multipart upload of 1 MiB to /file-part over h2c, sends BYTES
of its body, then resets the stream with CANCEL and waits for the server to take the reset (a PING answered after
it). Prints "reset-sent".
       h2_client.py PORT idle  -- opens the connection (preface and SETTINGS) and sends nothing more; prints the
GOAWAY's error code the server closes it with ("goaway NO_ERROR"), or "closed" for a close without one.
       h2_client.py PORT rapid-reset COUNT  -- opens COUNT upload streams and resets each at once (CVE-2023-44487),
then reads until the server closes; prints the GOAWAY's error code as idle does.
       h2_client.py PORT hpack-bomb COUNT  -- one GET whose header list repeats a 4,000-byte field COUNT times,
each repeat one byte on the wire (an index into the HPACK table); prints the answer's status.
"""
import socket
import sys

import h2.config
import h2.connection
import h2.errors
import h2.events
import h2.exceptions


def idle(port):
    sock = socket.create_connection(("127.0.0.1", port))
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    conn.initiate_connection()
    sock.sendall(conn.data_to_send())
    said = "closed"
    while data := sock.recv(65536):
        for event in conn.receive_data(data):
            if isinstance(event, h2.events.ConnectionTerminated):
                said = f"goaway {h2.errors.ErrorCodes(event.error_code).name}"
        sock.sendall(conn.data_to_send())
    print(said)


def read_until_closed(sock, conn):
    said = "closed"
    try:
        while data := sock.recv(65536):
            for event in conn.receive_data(data):
                if isinstance(event, h2.events.ConnectionTerminated):
                    said = f"goaway {h2.errors.ErrorCodes(event.error_code).name}"
            sock.sendall(conn.data_to_send())
    except (ConnectionResetError, BrokenPipeError, h2.exceptions.ProtocolError):
        pass
    return said


def rapid_reset(port, count):
    sock = socket.create_connection(("127.0.0.1", port))
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    conn.initiate_connection()
    for _ in range(count):
        stream = conn.get_next_available_stream_id()
        conn.send_headers(stream, [(":method", "POST"), (":path", "/discard"), (":scheme", "http"),
                                   (":authority", f"127.0.0.1:{port}"), ("content-length", "10")])
        conn.reset_stream(stream, h2.errors.ErrorCodes.CANCEL)
    try:
        sock.sendall(conn.data_to_send())
    except (ConnectionResetError, BrokenPipeError):
        pass
    print(read_until_closed(sock, conn))


def hpack_bomb(port, count):
    sock = socket.create_connection(("127.0.0.1", port))
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, validate_outbound_headers=False,
                                                                normalize_outbound_headers=False))
    conn.initiate_connection()
    conn.max_outbound_frame_size = 16384
    stream = conn.get_next_available_stream_id()
    big = ("x-bomb", "b" * 4000)
    conn.send_headers(stream, [(":method", "GET"), (":path", "/captures"), (":scheme", "http"),
                               (":authority", f"127.0.0.1:{port}")] + [big] * count, end_stream=True)
    sock.sendall(conn.data_to_send())
    status = "none"
    while status == "none" and (data := sock.recv(65536)):
        for event in conn.receive_data(data):
            if isinstance(event, h2.events.ResponseReceived):
                status = dict(event.headers)[b":status"].decode()
            if isinstance(event, h2.events.StreamReset) or isinstance(event, h2.events.ConnectionTerminated):
                status = f"reset {event.error_code}"
        sock.sendall(conn.data_to_send())
    print(status)


def main():
    port, action = int(sys.argv[1]), sys.argv[2]
    if action == "hpack-bomb":
        hpack_bomb(port, int(sys.argv[3]))
        return
    if action == "idle":
        idle(port)
        return
    if action == "rapid-reset":
        rapid_reset(port, int(sys.argv[3]))
        return
    assert action == "reset"
    sent = int(sys.argv[3])
    body = (b"--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"f.bin\"\r\n\r\n" + b"x" * (1 << 20)
            + b"\r\n--b--\r\n")
    sock = socket.create_connection(("127.0.0.1", port))
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    conn.initiate_connection()
    stream = conn.get_next_available_stream_id()
    conn.send_headers(stream, [(":method", "POST"), (":path", "/file-part"), (":scheme", "http"),
                               (":authority", f"127.0.0.1:{port}"),
                               ("content-type", "multipart/form-data; boundary=b"),
                               ("content-length", str(len(body)))])
    sock.sendall(conn.data_to_send())
    offset = 0
    while offset < sent:
        piece = min(16384, sent - offset, conn.local_flow_control_window(stream))
        if piece == 0:  # the window is spent, or the server's SETTINGS not read yet: read what it sent
            conn.receive_data(sock.recv(65536))
            continue
        conn.send_data(stream, body[offset:offset + piece])
        offset += piece
        sock.sendall(conn.data_to_send())
    conn.reset_stream(stream, h2.errors.ErrorCodes.CANCEL)
    conn.ping(b"after-rs")
    sock.sendall(conn.data_to_send())
    while True:  # the PING's answer comes after the server read the reset
        data = sock.recv(65536)
        if not data:
            break
        events = conn.receive_data(data)
        sock.sendall(conn.data_to_send())
        if any(isinstance(e, h2.events.PingAckReceived) for e in events):
            print("reset-sent")
            break
    conn.close_connection()
    sock.sendall(conn.data_to_send())
    sock.close()


if __name__ == "__main__":
    main()
