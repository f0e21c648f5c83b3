#!/usr/bin/env python3
"""Serves a folder written by gen-pypi-index.py as a PEP 691 index on 127.0.0.1, for the pypi
benchmark: /simple/<project>/ answers index.json with its content type, an ETag, and 304 to
If-None-Match; /packages/<file> answers the file. HTTP/1.1 with keep-alive, a thread per
connection. Prints the port on stdout, then serves until killed.

usage: pypi-index-server.py DIR
"""
import argparse
import hashlib
import http.server
import os
import sys



class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        path = self.path.split("?")[0]
        if path.startswith("/simple/") and path.endswith("/"):
            file = os.path.join(ROOT, path.lstrip("/"), "index.json")
            ctype = "application/vnd.pypi.simple.v1+json"
        elif path.startswith("/packages/"):
            file = os.path.join(ROOT, path.lstrip("/"))
            ctype = "application/octet-stream"
        else:
            file, ctype = None, None
        if not file or ".." in path or not os.path.isfile(file):
            body = b"not found\n"
            self.send_response(404)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        with open(file, "rb") as f:
            body = f.read()
        etag = '"%s"' % hashlib.sha256(body).hexdigest()[:16]
        if self.headers.get("If-None-Match") == etag:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("ETag", etag)
        self.end_headers()
        self.wfile.write(body)


class Server(http.server.ThreadingHTTPServer):
    # socketserver's default backlog (5) drops the SYNs of a client opening 8 connections at
    # once, which it then sends again a second later: a benchmark of the server, not of extdeps.
    request_queue_size = 128
    daemon_threads = True


ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
ap.add_argument("root", metavar="DIR", help="a folder written by gen-pypi-index.py")
ROOT = ap.parse_args().root
if not os.path.isdir(os.path.join(ROOT, "simple")):
    ap.error(f"no simple/ under {ROOT} (gen-pypi-index.py DIR writes one)")
server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
