#!/usr/bin/python3
"""An HTTP/2 upload by Python's httpx with h2 (Debian's python3-httpx, python3-h2) over TLS: a multipart form with
one file. Prints the answer's HTTP version and status, then its body.

Usage: h2_httpx.py URL CA_PEM FILE
"""
import sys

import httpx

url, ca, path = sys.argv[1:4]
with httpx.Client(http2=True, verify=ca) as client, open(path, "rb") as file:
    answer = client.post(url, files={"upload": ("upload.bin", file, "application/octet-stream")},
                         data={"note": "from httpx"})
print(answer.http_version, answer.status_code)
print(answer.text)
