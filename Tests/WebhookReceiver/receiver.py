#!/usr/bin/env python3
"""A webhook receiver for uaaudit's tests: answers on 127.0.0.1 as a plan says, records every request.

    receiver.py PLAN.json LOG.jsonl

PLAN: {"routes": {"/path": [reply, ...]}, "default": [reply, ...]}; the n-th request to a path
(query ignored) gets the n-th reply, the last one repeating. A reply is
{"status": 200, "body": "...", "headers": {...}, "delay": seconds, "repeat": n, "drip": seconds,
"interim": [100, 102]} (interim answers sent before the final one):
the body is sent `repeat` times (default 1; a huge answer without a huge plan), and with
`drip` one byte at a time, that many seconds apart (an answer slower than any timeout).
With "tls": {"cert": PATH, "key": PATH} it serves HTTPS. With "proxy": true it is a forward
proxy instead: a request for an absolute URL is passed on to that URL and its answer back, a
CONNECT opens a tunnel to HOST:PORT (502 when it cannot); both are logged like requests
(path: the absolute URL, or HOST:PORT).
Each request is appended to LOG as one JSON line (method, path with query, headers, body in
Base64, monotonic time of arrival) before it is answered. Prints the port, then serves until
stdin closes.
"""
import base64
import http.client
import json
import select
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

plan = json.load(open(sys.argv[1]))
log_path = sys.argv[2]
lock = threading.Lock()
counts = {}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if plan.get("proxy"):
            self.log_request_record(body)
            return self.forward(body)
        path = self.path.split("?", 1)[0]
        replies = plan.get("routes", {}).get(path) or plan.get("default") or [{"status": 404}]
        with lock:
            n = counts.get(path, 0)
            counts[path] = n + 1
        self.log_request_record(body)
        reply = replies[min(n, len(replies) - 1)]
        self.answer(reply)

    def log_request_record(self, body):
        record = {
            "method": self.command,
            "path": self.path,
            "headers": {k.lower(): v for k, v in self.headers.items()},
            "body": base64.b64encode(body).decode(),
            "time": time.monotonic(),
        }
        with lock:
            with open(log_path, "a") as log:
                log.write(json.dumps(record) + "\n")

    def forward(self, body):
        """Passes a request for an absolute http:// URL on, and its answer back."""
        target = http.client.urlsplit(self.path)
        try:
            upstream = http.client.HTTPConnection(target.hostname, target.port or 80, timeout=10)
            headers = {k: v for k, v in self.headers.items() if k.lower() not in ("proxy-connection", "connection")}
            upstream.request(self.command, target.path + ("?" + target.query if target.query else ""), body, headers)
            answer = upstream.getresponse()
            payload = answer.read()
        except OSError:
            self.send_response(502)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(answer.status)
        for name, value in answer.getheaders():
            if name.lower() not in ("content-length", "connection", "transfer-encoding"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def do_CONNECT(self):
        """Opens a tunnel to HOST:PORT and relays bytes both ways until either side closes."""
        self.log_request_record(b"")
        host, _, port = self.path.rpartition(":")
        try:
            upstream = socket.create_connection((host, int(port)), timeout=10)
        except (OSError, ValueError):
            self.send_response(502)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200, "Connection established")
        self.end_headers()
        self.wfile.flush()
        ends = [self.connection, upstream]
        try:
            while True:
                ready, _, _ = select.select(ends, [], [], 10)
                if not ready:
                    break
                for end in ready:
                    data = end.recv(65536)
                    if not data:
                        return
                    (upstream if end is self.connection else self.connection).sendall(data)
        except OSError:
            pass
        finally:
            upstream.close()
            self.close_connection = True

    def answer(self, reply):
        if reply.get("delay"):
            time.sleep(reply["delay"])
        payload = reply.get("body", "").encode()
        repeat = reply.get("repeat", 1)
        drip = reply.get("drip", 0)
        try:
            for code in reply.get("interim", []):
                self.wfile.write(b"HTTP/1.1 %d Interim\r\n\r\n" % code)
                self.wfile.flush()
            self.send_response(reply.get("status", 200))
            for name, value in reply.get("headers", {}).items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(payload) * repeat))
            self.end_headers()
            self.wfile.flush()
            for _ in range(repeat):
                if drip:
                    for i in range(len(payload)):
                        self.wfile.write(payload[i:i + 1])
                        self.wfile.flush()
                        time.sleep(drip)
                else:
                    self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError, OSError):
            pass  # the client gave up (a timeout test)

    do_POST = handle_any
    do_GET = handle_any

    def log_message(self, *args):
        pass


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass


server = Server(("127.0.0.1", 0), Handler)
if plan.get("tls"):
    # HTTPS with the test certificate (CN localhost, SAN 127.0.0.1; test-tls.crt is its own CA).
    import ssl
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(plan["tls"]["cert"], plan["tls"]["key"])
    server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
sys.stdin.read()  # until the test closes our stdin (or dies)
