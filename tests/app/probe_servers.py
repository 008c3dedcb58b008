#!/usr/bin/env python3
"""Upload servers with known habits, for the probe's tests: standard library only, on 127.0.0.1.

usage: probe_servers.py MODE [--workers N]; prints the port it listens on, then serves until killed. With
--workers, N forked children accept on the socket and the parent only waits, as a pre-forking server
(gunicorn's sync workers, nginx) does.

  stream     reads each body in 64 KiB pieces and keeps none of it: answers {"bytes": N}
  buffer     reads each whole body into memory before answering (as servers that collect a request do), and
             keeps the last one: answers {"bytes": N}
  dropbyte   reads the whole body, finds its parts, and reports each part's size with one byte less for the first
             file part: {"parts": [{"name", "size"}]} (a server that loses a byte)
  echo       answers as httpbin's /post does: {"files": {NAME: CONTENT}, "form": {NAME: VALUE}}, a file's content as
             text, or as a data: URL in base64 when it is not UTF-8; with ?lose=1 in the path, one byte short
  bylines    reads each body a line at a time, as Python's old cgi.FieldStorage parser did: fast on long lines,
             slow where CR LF comes every few bytes: answers {"bytes": N, "lines": N}
  early      answers 413 to every request as soon as its head is in, without reading the body, and closes after
             a lingering read (a server with a body limit)
  redirect   reads each body and answers as a form's POST is answered, 302 Found to /done (to /login when the
             path has "login" in it, as an expired session is answered); 404 for /missing, 303 to
             /accounts/login for /see-login, 302 to /author/uploads for /author, 307 to /else for /temp
  hang       takes a request's head, then reads nothing more until the client goes (a server stuck in its
             handler): the client's writes stall
  perread    looks for delimiters in each read on its own, as a naive streaming parser does, and reports the parts
             it found: {"parts": [{"name", "size"}]}. A delimiter split between two reads is missed, and the part
             before it swallows the next (a server that cannot take delimiters in pieces)
"""
import base64
import json
import os
import re
import socket
import sys
import threading
import time

from upstreams import header as field, read_head  # the forward tests' servers read heads alike

kept = None


def by_lines(body):
    """(bytes, lines that start with "--") of a body read a CR LF line at a time, as a line-based parser such as
    cgi.FieldStorage's read_lines_to_outerboundary does, with a call for each line. That cost per line is what makes
    CR LF-dense content slow: 12-16x plain on the probe's crlf-dense shape, by the probe beside two busy processes.
    Without the call a line cost a third as much, and the 2-5x it gave was lost once in such a machine's noise."""
    count = dashed = 0
    for piece in body:
        count += len(piece)
        for line in piece.split(b"\r\n"):
            dashed += read_line(line)
    return count, dashed


def read_line(line):
    """1 for a line that may be a delimiter (it starts with "--" and has more than blanks), else 0."""
    return 1 if line.startswith(b"--") and line.rstrip() else 0


def pieces(conn, head, rest):
    """The body's bytes as they come, de-chunked."""
    length = field(head, "content-length")
    if length is not None:
        left = int(length)
        if rest:
            yield rest[:left]
            left -= len(rest[:left])
        while left > 0:
            data = conn.recv(min(65536, left))
            if not data:
                return
            left -= len(data)
            yield data
        return
    buffered = rest
    while True:
        while b"\r\n" not in buffered:
            buffered += conn.recv(65536)
        line, buffered = buffered.split(b"\r\n", 1)
        size = int(line.split(b";")[0], 16)
        if size == 0:
            return
        while len(buffered) < size + 2:
            buffered += conn.recv(65536)
        yield buffered[:size]
        buffered = buffered[size + 2:]


def part_sizes(body, content_type):
    boundary = re.search(r'boundary="?([^";]+)"?', content_type).group(1).encode()
    out = []
    for chunk in (b"\r\n" + body).split(b"\r\n--" + boundary)[1:]:  # the first piece is the preamble
        if chunk.startswith(b"--"):
            break
        headers, _, content = chunk.partition(b"\r\n\r\n")
        name = re.search(rb'name="([^"]*)"', headers)
        out.append({"name": name.group(1).decode() if name else "", "size": len(content),
                    "file": b"filename=" in headers})
    return out


def echo(body, content_type, lose):
    """An httpbin-style echo of the parts."""
    boundary = re.search(r'boundary="?([^";]+)"?', content_type).group(1).encode()
    files, form = {}, {}
    for chunk in (b"\r\n" + body).split(b"\r\n--" + boundary)[1:]:
        if chunk.startswith(b"--"):
            break
        headers, _, content = chunk.partition(b"\r\n\r\n")
        name = re.search(rb'name="([^"]*)"', headers).group(1).decode()
        if b"filename=" not in headers:
            form[name] = content.decode("utf-8", "replace")
            continue
        if lose:
            content = content[:-1]
        try:
            files[name] = content.decode("utf-8")
        except UnicodeDecodeError:
            files[name] = "data:application/octet-stream;base64," + base64.b64encode(content).decode()
    return {"files": files, "form": form}


def per_read_parts(reads, content_type):
    """The parts as a parser that finds delimiters only within one read sees them."""
    delimiter = b"\r\n--" + re.search(r'boundary="?([^";]+)"?', content_type).group(1).encode()
    parts = []  # [its first bytes (for its headers), its length], each from just after a delimiter
    first = True
    for data in reads:
        if first:  # the opening delimiter has no CR LF before it
            data, first = b"\r\n" + data, False
        found = data.split(delimiter)
        if parts:
            parts[-1][0] = (parts[-1][0] + found[0])[:4096]
            parts[-1][1] += len(found[0])
        parts += [[piece[:4096], len(piece)] for piece in found[1:]]
    # Each part's content: what follows its header block, up to the next delimiter it saw.
    return [{"name": "file", "size": length - prefix.find(b"\r\n\r\n") - 4} for prefix, length in parts[:-1]]


def serve(conn, mode):
    global kept
    with conn:
        while True:
            head, rest = read_head(conn, b"")
            if head is None:
                return
            if mode == "early":
                conn.sendall(b"HTTP/1.1 413 Payload Too Large\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                # A lingering close, as nginx makes one: a close with the body unread would reset the connection,
                # and the reset can overtake the answer still in this kernel's send queue.
                conn.shutdown(socket.SHUT_WR)
                conn.settimeout(2)
                try:
                    while conn.recv(65536):
                        pass
                except OSError:
                    pass
                return
            if mode == "hang":
                while conn.recv(1, socket.MSG_PEEK):  # the body waits unread until the client closes
                    time.sleep(0.2)
                return
            if mode == "redirect":
                count = sum(len(p) for p in pieces(conn, head, rest))
                path = head.split(" ", 2)[1]
                status, to = {"/missing": ("404 Not Found", ""), "/see-login": ("303 See Other", "/accounts/login"),
                              "/author": ("302 Found", "/author/uploads"), "/temp": ("307 Temporary Redirect", "/else")
                              }.get(path, ("302 Found", "/login" if "login" in path else "/done"))
                conn.sendall(b"HTTP/1.1 %s\r\nLocation: %s\r\nContent-Length: 0\r\n\r\n"
                             % (status.encode(), to.encode()))
                continue
            if mode == "stream":
                count = sum(len(p) for p in pieces(conn, head, rest))
                answer = {"bytes": count}
            elif mode == "bylines":
                count, lines = by_lines(pieces(conn, head, rest))
                answer = {"bytes": count, "lines": lines}
            elif mode == "echo":
                body = b"".join(pieces(conn, head, rest))
                answer = echo(body, field(head, "content-type") or "", "lose=1" in head.split("\r\n", 1)[0])
            elif mode == "perread":
                answer = {"parts": per_read_parts(pieces(conn, head, rest), field(head, "content-type") or "")}
            else:
                body = b"".join(pieces(conn, head, rest))
                answer = {"bytes": len(body)}
                if mode == "buffer":
                    kept = body
                else:
                    parts = part_sizes(body, field(head, "content-type") or "")
                    dropped = False
                    for p in parts:
                        if p.pop("file") and not dropped:
                            p["size"] -= 1
                            dropped = True
                    answer = {"parts": parts}
            data = json.dumps(answer).encode()
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"
                         % len(data) + data)


def accept_forever(server, mode):
    while True:
        conn, _ = server.accept()
        threading.Thread(target=serve, args=(conn, mode), daemon=True).start()


def main():
    mode = sys.argv[1]
    workers = int(sys.argv[3]) if sys.argv[2:3] == ["--workers"] else 0
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    print(server.getsockname()[1], flush=True)
    if not workers:
        accept_forever(server, mode)
    parent = os.getpid()
    for _ in range(workers):
        if os.fork() == 0:
            threading.Thread(target=exit_with, args=(parent,), daemon=True).start()
            accept_forever(server, mode)
    while True:
        os.wait()


def exit_with(parent):
    """A worker ends when its parent does (the tests kill the parent alone)."""
    while os.getppid() == parent:
        time.sleep(0.2)
    os._exit(0)


if __name__ == "__main__":
    main()
