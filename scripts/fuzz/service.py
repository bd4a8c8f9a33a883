"""Small helpers for scripts/fuzz-api.sh, standard library only.

  free-port                      print a free TCP port on 127.0.0.1
  wait BASE_URL SECONDS          wait until GET BASE_URL/healthz answers 200
  credentials BASE_URL           create a dashboard and an API token through the admin API
                                 (ADMIN_TOKEN from the environment); print the token
  check-token BASE_URL           exit 1 unless GET /api/v1/orders with FUZZ_API_TOKEN answers 200
  sink PORT                      a webhook receiver on 127.0.0.1:PORT that answers every request 410 Gone,
                                 until killed: the service disables each endpoint after its first delivery
"""

from __future__ import annotations

import http.server
import json
import os
import socket
import sys
import time
import urllib.error
import urllib.request


def request(method: str, url: str, token: str | None = None, body: object | None = None) -> tuple[int, dict]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, method=method, data=data)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    if token is not None:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=10) as res:
            return res.status, json.loads(res.read() or b"{}")
    except urllib.error.HTTPError as err:
        return err.code, {}


def free_port() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        print(sock.getsockname()[1])


def wait(base: str, seconds: str) -> None:
    deadline = time.monotonic() + float(seconds)
    while time.monotonic() < deadline:
        try:
            if request("GET", f"{base}/healthz")[0] == 200:
                return
        except (OSError, ValueError):
            pass
        time.sleep(0.2)
    sys.exit(f"the service did not answer {base}/healthz within {seconds} s")


def credentials(base: str) -> None:
    admin = os.environ["ADMIN_TOKEN"]
    status, body = request("POST", f"{base}/admin/v1/dashboards", admin, {"name": "fuzz"})
    if status != 201:
        sys.exit(f"POST /admin/v1/dashboards answered {status}")
    dashboard = body["dashboard"]["id"]
    status, body = request("POST", f"{base}/admin/v1/dashboards/{dashboard}/tokens", admin, {})
    if status != 201:
        sys.exit(f"POST /admin/v1/dashboards/{dashboard}/tokens answered {status}")
    print(body["token"]["token"])


def check_token(base: str) -> None:
    status = request("GET", f"{base}/api/v1/orders", os.environ["FUZZ_API_TOKEN"])[0]
    if status != 200:
        sys.exit(f"the fuzzing token no longer works: GET /api/v1/orders answered {status}")


class _Gone(http.server.BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 (the name http.server calls)
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(410)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


def sink(port: str) -> None:
    http.server.ThreadingHTTPServer(("127.0.0.1", int(port)), _Gone).serve_forever()


if __name__ == "__main__":
    command, *args = sys.argv[1:]
    {"free-port": free_port, "wait": wait, "credentials": credentials, "check-token": check_token, "sink": sink}[command](*args)
