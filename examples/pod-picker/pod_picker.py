#!/usr/bin/env python3
"""A small Pod Picker for kdesched: chooses the pods with the fewest active sessions.

It speaks the downscale Pod Picker contract (KEP-3189):
    POST {"number_of_pods_requested": n, "candidate_pods": ["<namespace>/<name>", ...]}
    200  {"chosen_pods": [...], "tied_pods": [...]}
The n pods with the fewest sessions are the answer; pods whose count equals the last one taken
cannot be told apart, so they are all returned as tied (the KEP's [1, 2, 2, 2] example). A pod
missing from the sessions file is treated as the busiest. The file is read on every request, so
it can be edited while the picker runs.

Python 3 standard library only. Prints "listening on <url>" on stdout once it accepts requests.
"""
import argparse
import json
import math
import ssl
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def pick(candidates, requested, sessions):
    """The contract's answer: (chosen, tied) among `candidates`."""
    cost = {name: sessions.get(name, math.inf) for name in candidates}
    ranked = sorted(candidates, key=lambda name: cost[name])  # stable: ties keep the request's order
    last = cost[ranked[requested - 1]]
    below = [name for name in ranked if cost[name] < last]
    at_last = [name for name in ranked if cost[name] == last]
    if len(below) + len(at_last) == requested:  # no real tie: every pod at the last count is needed
        return below + at_last, []
    return below, at_last


def make_handler(args):
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            if self.path != args.path:
                return self.reply(404, {"error": f"no picker at {self.path}; try {args.path}"})
            if args.token and self.headers.get("Authorization") != f"Bearer {args.token}":
                return self.reply(401, {"error": "missing or wrong Authorization header"})
            try:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                candidates = list(body["candidate_pods"])
                requested = int(body["number_of_pods_requested"])
                if not 1 <= requested <= len(candidates):
                    raise ValueError(f"number_of_pods_requested {requested} of {len(candidates)} candidates")
            except (ValueError, KeyError, TypeError) as e:
                return self.reply(400, {"error": f"bad request: {e}"})
            with open(args.sessions) as f:
                sessions = json.load(f)
            chosen, tied = pick(candidates, requested, sessions)
            self.log_message("asked for %d of %s: chosen %s, tied %s", requested, candidates, chosen, tied)
            self.reply(200, {"chosen_pods": chosen, "tied_pods": tied})

        def reply(self, status, payload):
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=18080, help="port to listen on; 0 picks a free one (default 18080)")
    p.add_argument("--path", default="/pick", help="path of the picker (default /pick)")
    p.add_argument("--sessions", required=True, help='JSON file {"<namespace>/<name>": active sessions, ...}')
    p.add_argument("--token", help="require the header Authorization: Bearer TOKEN")
    p.add_argument("--tls-cert", help="serve https with this PEM certificate (chain)")
    p.add_argument("--tls-key", help="the certificate's PEM private key")
    args = p.parse_args()

    server = ThreadingHTTPServer((args.host, args.port), make_handler(args))
    scheme = "http"
    if args.tls_cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.tls_cert, args.tls_key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
        scheme = "https"
    host, port = server.server_address[:2]
    print(f"listening on {scheme}://{host}:{port}{args.path}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
