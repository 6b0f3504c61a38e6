#!/usr/bin/env python3
"""A test Kubernetes API server for kdesched's integration tests and benchmarks.

It imitates kube-apiserver v1.32 where kdesched meets it: LIST (paged with limit/continue, one
consistent resourceVersion per list), WATCH (newline-delimited events from a resourceVersion,
bookmarks, timeoutSeconds, 410 Gone for a resourceVersion that is too old), create / update /
status subresource / merge patch / delete with resourceVersion conflicts, the Eviction API, and
Status objects for every error. Tests drive it through /_test/: load objects, inject faults,
compact the history, "restart" it (resourceVersions renumbered), drop every open watch, and read
back every request it served; /_test/touch makes a burst of watch events for the API benchmark. Built-in kinds are
answered in protobuf (LIST, WATCH, errors) when the Accept header puts
application/vnd.kubernetes.protobuf first, as a real server does; custom resources stay JSON.

Standard library only (and k8s_protobuf.py beside it). Usage:
  fake_apiserver.py [--port 0] [--tls-cert F --tls-key F [--client-ca F]] [--token T ...]
                    [--bookmark-interval S]
Prints "READY <port>" once it accepts connections.
"""

import argparse
import base64
import bisect
import json
import os
import socket
import ssl
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import k8s_protobuf

# group, version, plural -> (kind, namespaced, status subresource)
RESOURCES = {
    ("", "v1", "pods"): ("Pod", True, True),
    ("", "v1", "nodes"): ("Node", False, True),
    ("", "v1", "namespaces"): ("Namespace", False, True),
    ("", "v1", "secrets"): ("Secret", True, False),
    ("", "v1", "events"): ("Event", True, False),
    ("", "v1", "replicationcontrollers"): ("ReplicationController", True, True),
    ("", "v1", "persistentvolumeclaims"): ("PersistentVolumeClaim", True, True),
    ("scheduling.k8s.io", "v1", "priorityclasses"): ("PriorityClass", False, False),
    ("apps", "v1", "replicasets"): ("ReplicaSet", True, True),
    ("apps", "v1", "deployments"): ("Deployment", True, True),
    ("apps", "v1", "statefulsets"): ("StatefulSet", True, True),
    ("apps", "v1", "daemonsets"): ("DaemonSet", True, True),
    ("batch", "v1", "jobs"): ("Job", True, True),
    ("policy", "v1", "poddisruptionbudgets"): ("PodDisruptionBudget", True, True),
    ("coordination.k8s.io", "v1", "leases"): ("Lease", True, False),
    ("events.k8s.io", "v1", "events"): ("Event", True, False),
    ("slo.koordinator.sh", "v1alpha1", "nodemetrics"): ("NodeMetric", False, True),
    ("scheduling.koordinator.sh", "v1alpha1", "podmigrationjobs"): ("PodMigrationJob", False, True),
    ("scheduling.koordinator.sh", "v1alpha1", "reservations"): ("Reservation", False, True),
    # metrics-server's aggregated API (read-only there; tests load its objects through /_test/).
    ("metrics.k8s.io", "v1beta1", "nodes"): ("NodeMetrics", False, False),
    ("metrics.k8s.io", "v1beta1", "pods"): ("PodMetrics", True, False),
}
CRD_GROUPS = {"slo.koordinator.sh", "scheduling.koordinator.sh"}
PROTOBUF = "application/vnd.kubernetes.protobuf"
KIND_TO_GVR = {}
for _gvr, (_kind, _ns, _st) in RESOURCES.items():
    KIND_TO_GVR.setdefault((_kind, _gvr[0] + "/" + _gvr[1] if _gvr[0] else _gvr[1]), _gvr)


def api_version(gvr):
    return gvr[0] + "/" + gvr[1] if gvr[0] else gvr[1]


def resource_name(gvr):
    return gvr[2] + ("." + gvr[0] if gvr[0] else "")


def now_rfc3339():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def status_body(code, reason, message, details=None):
    body = {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
            "message": message, "reason": reason, "code": code}
    if details:
        body["details"] = details
    return body


def merge_patch(target, patch):
    if not isinstance(patch, dict):
        return patch
    if not isinstance(target, dict):
        target = {}
    for k, v in patch.items():
        if v is None:
            target.pop(k, None)
        else:
            target[k] = merge_patch(target.get(k), v)
    return target


class ApiError(Exception):
    def __init__(self, code, reason, message, details=None, retry_after=None):
        super().__init__(message)
        self.code, self.reason, self.message, self.details, self.retry_after = code, reason, message, details, retry_after


class Store:
    """Objects per resource, one resourceVersion counter, and the event history watches resume from."""

    def __init__(self, history):
        self.lock = threading.Condition()
        self.rv = 1
        self.objects = {gvr: {} for gvr in RESOURCES}  # gvr -> key -> (dict, bytes)
        self.events = []  # (rv, gvr, bytes of the event line), in resourceVersion order
        self.event_rvs = []  # their resourceVersions, for bisect
        self.history = history
        self.compacted = 0  # events at or before this resourceVersion are gone
        self.generation = 0  # bumped by restart: open watches end
        self.streams = 0  # bumped by /_test/drop_watches: open watches end, nothing else changes

    @staticmethod
    def key(obj):
        m = obj.get("metadata", {})
        return (m.get("namespace", ""), m.get("name", ""))

    def _stamp(self, gvr, obj):
        """Sets apiVersion and kind (first, as the server writes them) and the next resourceVersion."""
        rest = {k: v for k, v in obj.items() if k not in ("apiVersion", "kind")}
        obj.clear()
        obj.update({"apiVersion": api_version(gvr), "kind": RESOURCES[gvr][0]}, **rest)
        self.rv += 1
        obj.setdefault("metadata", {})["resourceVersion"] = str(self.rv)
        return json.dumps(obj, separators=(",", ":")).encode()

    def _record(self, gvr, type_, data):
        line = b'{"type":"' + type_.encode() + b'","object":' + data + b"}\n"
        self.events.append((self.rv, gvr, line))
        self.event_rvs.append(self.rv)
        if len(self.events) > self.history + self.history // 4:
            drop = len(self.events) - self.history
            self.compacted = max(self.compacted, self.events[drop - 1][0])
            del self.events[:drop]
            del self.event_rvs[:drop]
        self.lock.notify_all()

    def put(self, gvr, obj, event=None):
        """Stores obj (already merged), stamping resourceVersion; returns (dict, bytes)."""
        k = self.key(obj)
        existed = k in self.objects[gvr]
        data = self._stamp(gvr, obj)
        self.objects[gvr][k] = (obj, data)
        self._record(gvr, event or ("MODIFIED" if existed else "ADDED"), data)
        return obj, data

    def delete(self, gvr, k):
        obj, _ = self.objects[gvr].pop(k)
        data = self._stamp(gvr, obj)
        self._record(gvr, "DELETED", data)
        return obj

    def create(self, gvr, obj):
        m = obj.setdefault("metadata", {})
        if not m.get("name") and m.get("generateName"):
            m["name"] = m["generateName"] + uuid.uuid4().hex[:5]
        m["uid"] = str(uuid.uuid4())
        m["creationTimestamp"] = now_rfc3339()
        m.pop("resourceVersion", None)
        return self.put(gvr, obj, "ADDED")

    def since(self, gvr, rv):
        """The event lines of gvr after rv (lock held)."""
        i = bisect.bisect_right(self.event_rvs, rv)
        return [(r, line) for r, g, line in self.events[i:] if g == gvr]

    def compact(self):
        with self.lock:
            self.compacted = self.rv
            self.events.clear()
            self.event_rvs.clear()

    def restart(self):
        with self.lock:
            self.generation += 1
            self.rv += 1000000
            self.events.clear()
            self.event_rvs.clear()
            self.compacted = self.rv
            for gvr, objs in self.objects.items():
                for k, (obj, _) in list(objs.items()):
                    self.rv += 1
                    obj["metadata"]["resourceVersion"] = str(self.rv)
                    objs[k] = (obj, json.dumps(obj, separators=(",", ":")).encode())
            self.compacted = self.rv
            self.lock.notify_all()


class State:
    def __init__(self, args):
        self.store = Store(args.history)
        self.tokens = set(args.token or [])
        self.client_ca = args.client_ca
        self.bookmark_interval = args.bookmark_interval
        self.rv0_ignores_limit = True
        self.graceful = False
        self.forbid = []
        self.not_served = set()
        self.unserved_groups = set()  # whole API groups missing: "404 page not found", not a Status
        self.pdb_protected = set()
        self.faults = []
        self.faults_lock = threading.Lock()
        self.requests = []
        self.requests_lock = threading.Lock()
        self.watchers = {}
        self.continues = {}  # token -> (rv, offset, gvr, namespace)
        self.list_bodies = {}  # gvr -> (what the LIST asked, at which resourceVersion; its body)
        self.protobuf_cache = {}  # stored JSON bytes -> protobuf message

    def fault_for(self, method, path, watch, query):
        with self.faults_lock:
            for rule in self.faults:
                if rule.get("method", "*") not in ("*", method):
                    continue
                if rule.get("continue") is not None and bool(rule["continue"]) != ("continue" in query):
                    continue
                if not path.startswith(rule.get("path", "")):
                    continue
                w = rule.get("watch")
                if w is not None and bool(w) != watch:
                    continue
                times = rule.get("times", 1)
                if times == 0:
                    return rule["action"]
                rule["times"] = times - 1
                if rule["times"] == 0:
                    self.faults.remove(rule)
                return rule["action"]
        return None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers, chunks and events go out as written
    state = None  # set by main

    def log_message(self, *args):
        pass

    def setup(self):
        # The TLS handshake on this connection's own thread, not in the accept loop.
        if isinstance(self.request, ssl.SSLSocket):
            try:
                self.request.do_handshake()
            except (ssl.SSLError, OSError):
                pass
        super().setup()

    # --- plumbing -------------------------------------------------------------------------------
    def body(self):
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n) if n else b""

    def send_response(self, code, message=None):
        # The recorded request gets its code before the client can read the answer: a test that
        # reads /_test/requests right after its call sees it (not 0).
        if getattr(self, "entry", None) is not None:
            self.entry["code"] = code
        super().send_response(code, message)

    def send_bytes(self, code, data, content_type="application/json", headers=None):
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)
        self.code = code

    def send_json(self, code, obj, headers=None):
        self.send_bytes(code, json.dumps(obj, separators=(",", ":")).encode(), headers=headers)

    def send_error_status(self, e):
        headers = {"Retry-After": str(e.retry_after)} if e.retry_after is not None else None
        if self.protobuf(self.path_group()):
            body = k8s_protobuf.envelope("v1", "Status", k8s_protobuf.status_message(e.code, e.reason, e.message))
            return self.send_bytes(e.code, body, PROTOBUF, headers)
        self.send_json(e.code, status_body(e.code, e.reason, e.message, e.details), headers)

    # --- protobuf ---------------------------------------------------------------------------------
    def path_group(self):
        parts = [p for p in urlsplit(self.path).path.split("/") if p]
        return parts[1] if len(parts) > 1 and parts[0] == "apis" else ""

    def protobuf(self, group, kind=None):
        """Whether to answer in protobuf: asked for first, and a built-in kind (CRDs are JSON only)."""
        first = self.headers.get("Accept", "").split(",")[0].split(";")[0].strip()
        return first == PROTOBUF and group not in CRD_GROUPS and (kind is None or k8s_protobuf.supported(kind))

    def protobuf_item(self, data):
        """An object's message, encoded once per stored version."""
        cache = self.state.protobuf_cache
        got = cache.get(data)
        if got is None:
            got = cache[data] = k8s_protobuf.encode(json.loads(data))
        return got

    def protobuf_event(self, line, gvr):
        """A JSON watch event line as a protobuf frame."""
        event = json.loads(line)
        kind = RESOURCES[gvr][0]
        if event["type"] == "ERROR":
            o = event["object"]
            return k8s_protobuf.watch_frame("ERROR", "v1", "Status",
                                            k8s_protobuf.status_message(o["code"], o["reason"], o["message"]))
        message = k8s_protobuf.encode(dict(event["object"], kind=kind))
        return k8s_protobuf.watch_frame(event["type"], api_version(gvr), kind, message)

    def user(self):
        cert = self.connection.getpeercert() if isinstance(self.connection, ssl.SSLSocket) else None
        if cert:
            for rdn in cert.get("subject", ()):
                for k, v in rdn:
                    if k == "commonName":
                        return v
        auth = self.headers.get("Authorization", "")
        if auth.startswith("Bearer ") and auth[7:] in self.state.tokens:
            return "token:" + auth[7:8] + "…"
        if not self.state.tokens and not self.state.client_ca:
            return "anonymous"
        return None

    def record(self, method, path, query, body, watch):
        entry = {"method": method, "path": path, "query": {k: v[0] for k, v in query.items()},
                 "user": self.user(), "content_type": self.headers.get("Content-Type", ""),
                 "watch": watch, "time": time.time(), "code": 0}
        if body:
            try:
                entry["body"] = json.loads(body)
            except ValueError:
                entry["body"] = body.decode(errors="replace")
        with self.state.requests_lock:
            self.state.requests.append(entry)
        return entry

    # --- dispatch -------------------------------------------------------------------------------
    def do_GET(self):
        self.dispatch("GET")

    def do_POST(self):
        self.dispatch("POST")

    def do_PUT(self):
        self.dispatch("PUT")

    def do_PATCH(self):
        self.dispatch("PATCH")

    def do_DELETE(self):
        self.dispatch("DELETE")

    def dispatch(self, method):
        url = urlsplit(self.path)
        path, query = url.path, parse_qs(url.query)
        body = self.body()
        self.code = 0
        self.entry = None
        if path.startswith("/_test/"):
            return self.control(method, path, query, body)
        watch = query.get("watch", [""])[0] in ("1", "true")
        entry = self.entry = self.record(method, path, query, body, watch)
        try:
            if path in ("/healthz", "/readyz", "/livez"):
                return self.send_bytes(200, b"ok", "text/plain")
            if path == "/version":
                return self.send_json(200, {"major": "1", "minor": "32", "gitVersion": "v1.32.0-fake"})
            if self.user() is None:
                raise ApiError(401, "Unauthorized", "Unauthorized")
            if self.group_unserved(path):  # as the real server's mux answers an unknown group
                return self.send_bytes(404, b"404 page not found", "text/plain")
            if method == "GET" and self.discovery(path):
                return
            action = self.state.fault_for(method, path, watch, query)
            if action and action.get("type") == "status":
                code = action.get("code", 500)
                raise ApiError(code, action.get("reason", {410: "Expired", 429: "TooManyRequests",
                                                          403: "Forbidden", 404: "NotFound"}.get(code, "InternalError")),
                               action.get("message", "injected by the test"), retry_after=action.get("retry_after"))
            self.api(method, path, query, body, watch, action)
        except ApiError as e:
            self.send_error_status(e)
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError):
            self.close_connection = True
        finally:
            entry["code"] = self.code

    def group_unserved(self, path):
        parts = [p for p in path.split("/") if p]
        return len(parts) >= 2 and parts[0] == "apis" and parts[1] in self.state.unserved_groups

    def discovery(self, path):
        """/api/v1 and /apis/<group>/<version>: the APIResourceList of what this server serves there."""
        parts = [p for p in path.split("/") if p]
        if parts == ["api", "v1"]:
            group, version = "", "v1"
        elif len(parts) == 3 and parts[0] == "apis":
            group, version = parts[1], parts[2]
        else:
            return False
        found = [(gvr, spec) for gvr, spec in RESOURCES.items() if gvr[0] == group and gvr[1] == version]
        if group == "policy" and version == "v1":
            found.append((("policy", "v1", "pods/eviction"), ("Eviction", True, False)))
        if not found or all((g, r) in self.state.not_served for (g, _, r), _ in found):
            self.send_bytes(404, b"404 page not found", "text/plain")
            return True
        self.send_json(200, {"kind": "APIResourceList", "apiVersion": "v1",
                             "groupVersion": group + "/" + version if group else version,
                             "resources": [{"name": gvr[2], "namespaced": spec[1], "kind": spec[0]}
                                           for gvr, spec in found]})
        return True

    # --- the API --------------------------------------------------------------------------------
    def parse_path(self, path):
        parts = [p for p in path.split("/") if p]
        if parts[:2] == ["api", "v1"]:
            group, version, rest = "", "v1", parts[2:]
        elif parts[:1] == ["apis"] and len(parts) >= 3:
            group, version, rest = parts[1], parts[2], parts[3:]
        else:
            raise ApiError(404, "NotFound", "the server could not find the requested resource")
        ns = ""
        if len(rest) >= 3 and rest[0] == "namespaces" and rest[2] not in ("status", "finalize"):
            ns, rest = rest[1], rest[2:]
        if not rest:
            raise ApiError(404, "NotFound", "the server could not find the requested resource")
        gvr = (group, version, rest[0])
        if gvr not in RESOURCES or (group, rest[0]) in self.state.not_served:
            raise ApiError(404, "NotFound", "the server could not find the requested resource")
        name = rest[1] if len(rest) > 1 else ""
        sub = rest[2] if len(rest) > 2 else ""
        return gvr, ns, name, sub

    def check_allowed(self, verb, gvr, sub, ns):
        resource = gvr[2] + ("/" + sub if sub else "")
        for rule in self.state.forbid:
            if rule.get("verb") == verb and rule.get("group", "") == gvr[0] and rule.get("resource") == resource:
                where = 'in the namespace "%s"' % ns if ns else "at the cluster scope"
                raise ApiError(403, "Forbidden", '%s is forbidden: User "%s" cannot %s resource "%s" in API group "%s" %s'
                               % (resource_name(gvr) if not sub else resource, self.user(), verb, resource, gvr[0], where))

    def api(self, method, path, query, body, watch, action):
        gvr, ns, name, sub = self.parse_path(path)
        kind, namespaced, has_status = RESOURCES[gvr]
        st = self.state.store
        verb = {"GET": "watch" if watch else ("get" if name else "list"), "POST": "create", "PUT": "update",
                "PATCH": "patch", "DELETE": "delete"}[method]
        self.check_allowed(verb, gvr, sub, ns)
        if method == "GET" and not name:
            return self.watch(gvr, ns, query, action) if watch else self.list(gvr, ns, query, action)
        if method == "GET":
            with st.lock:
                got = st.objects[gvr].get((ns, name))
            if not got:
                raise ApiError(404, "NotFound", '%s "%s" not found' % (resource_name(gvr), name))
            return self.send_bytes(200, got[1])
        try:
            obj = json.loads(body) if body else {}
        except ValueError:
            raise ApiError(400, "BadRequest", "the body is not JSON")
        if method == "POST" and name and sub == "eviction" and gvr == ("", "v1", "pods"):
            return self.evict(gvr, ns, name)
        if method == "POST":
            return self.create(gvr, ns, obj, has_status)
        if method == "PUT":
            return self.update(gvr, ns, name, sub, obj, has_status)
        if method == "PATCH":
            return self.patch(gvr, ns, name, sub, obj, has_status)
        if method == "DELETE":
            return self.delete(gvr, ns, name)

    def create(self, gvr, ns, obj, has_status):
        st = self.state.store
        obj.setdefault("metadata", {})
        if ns:
            obj["metadata"]["namespace"] = ns
        if has_status and gvr[0] in CRD_GROUPS:
            obj.pop("status", None)
        with st.lock:
            if st.key(obj) in st.objects[gvr]:
                raise ApiError(409, "AlreadyExists", '%s "%s" already exists' % (resource_name(gvr), obj["metadata"]["name"]))
            _, data = st.create(gvr, obj)
        self.send_bytes(201, data)

    @staticmethod
    def check_version(gvr, name, cur_obj, rv):
        """An update's or patch's resourceVersion must be the stored one (none given: no check)."""
        if rv and rv != cur_obj["metadata"]["resourceVersion"]:
            raise ApiError(409, "Conflict", 'Operation cannot be fulfilled on %s "%s": the object has been modified; '
                           "please apply your changes to the latest version and try again" % (resource_name(gvr), name))

    @staticmethod
    def after_write(cur_obj, written, sub, keep_status):
        """The object a write leaves: on the status subresource the stored object with the written
        status; on the main resource the written object with the server's metadata and, when the
        kind has a status subresource (keep_status), the stored status."""
        if sub == "status":
            new = json.loads(json.dumps(cur_obj))
            if "status" in written:
                new["status"] = written["status"]
            else:
                new.pop("status", None)
            return new
        new = written
        new.setdefault("metadata", {})
        for k in ("uid", "creationTimestamp", "namespace", "name"):
            if k in cur_obj["metadata"]:
                new["metadata"][k] = cur_obj["metadata"][k]
        if keep_status:
            if "status" in cur_obj:
                new["status"] = cur_obj["status"]
            else:
                new.pop("status", None)
        return new

    def stored(self, gvr, ns, name):
        cur = self.state.store.objects[gvr].get((ns, name))
        if not cur:
            raise ApiError(404, "NotFound", '%s "%s" not found' % (resource_name(gvr), name))
        return cur[0]

    def update(self, gvr, ns, name, sub, obj, has_status):
        st = self.state.store
        with st.lock:
            cur_obj = self.stored(gvr, ns, name)
            rv = obj.get("metadata", {}).get("resourceVersion", "")
            if not rv and gvr[0] in CRD_GROUPS:
                raise ApiError(422, "Invalid", '%s "%s" is invalid: metadata.resourceVersion: Invalid value: 0: must be '
                               "specified for an update" % (resource_name(gvr), name))
            self.check_version(gvr, name, cur_obj, rv)
            _, data = st.put(gvr, self.after_write(cur_obj, obj, sub, has_status))
        self.send_bytes(200, data)

    def patch(self, gvr, ns, name, sub, patch, has_status):
        """A JSON merge patch; metadata.resourceVersion in it is a precondition, as on a real server.
        On a status subresource only the status changes; on the main resource of a Koordinator kind,
        everything but the status."""
        st = self.state.store
        with st.lock:
            cur_obj = self.stored(gvr, ns, name)
            rv = (patch.get("metadata") or {}).get("resourceVersion") if isinstance(patch, dict) else None
            self.check_version(gvr, name, cur_obj, rv)
            patched = merge_patch(json.loads(json.dumps(cur_obj)), patch)
            new = self.after_write(cur_obj, patched, sub, has_status and gvr[0] in CRD_GROUPS)
            new["metadata"]["name"] = name
            _, data = st.put(gvr, new)
        self.send_bytes(200, data)

    def remove(self, gvr, ns, name):
        st = self.state.store
        cur = st.objects[gvr].get((ns, name))
        if not cur:
            raise ApiError(404, "NotFound", '%s "%s" not found' % (resource_name(gvr), name))
        if self.state.graceful and gvr == ("", "v1", "pods"):
            new = json.loads(json.dumps(cur[0]))
            new["metadata"].setdefault("deletionTimestamp", now_rfc3339())
            return st.put(gvr, new)[0]
        return st.delete(gvr, (ns, name))

    def delete(self, gvr, ns, name):
        with self.state.store.lock:
            obj = self.remove(gvr, ns, name)
        self.send_json(200, obj)

    def evict(self, gvr, ns, name):
        with self.state.store.lock:
            if (ns, name) in self.state.pdb_protected and (ns, name) in self.state.store.objects[gvr]:
                raise ApiError(429, "TooManyRequests", "Cannot evict pod as it would violate the pod's disruption budget.",
                               {"causes": [{"reason": "DisruptionBudget",
                                            "message": "The disruption budget needs 1 healthy pods and has 1 currently"}]})
            self.remove(gvr, ns, name)
        self.send_json(201, {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "code": 201})

    # --- LIST -----------------------------------------------------------------------------------
    def list(self, gvr, ns, query, action):
        st = self.state.store
        limit = int(query.get("limit", ["0"])[0] or 0)
        cont = query.get("continue", [""])[0]
        rv_param = query.get("resourceVersion", [None])[0]
        if rv_param == "0" and self.state.rv0_ignores_limit:
            limit = 0
        protobuf = self.protobuf(gvr[0], RESOURCES[gvr][0])
        cached = self.state.list_bodies.get(gvr)
        body = None
        with st.lock:
            if cont:
                try:
                    info = json.loads(base64.b64decode(cont))
                    list_rv, offset = info["rv"], info["offset"]
                except (ValueError, KeyError):
                    raise ApiError(400, "BadRequest", "the continue token is not valid")
                if list_rv <= st.compacted or info.get("gen") != st.generation:
                    raise ApiError(410, "Expired", "The provided continue parameter is too old to display a consistent list "
                                   "result. You can start a new list without the continue parameter, or use the continue "
                                   "token in this response to retrieve the remainder of the results. Continuing with the "
                                   "provided token results in an inconsistent list - objects that were created, modified, "
                                   "or deleted between the time the first chunk was returned and now may show up in the list.")
            else:
                list_rv, offset = st.rv, 0
            # The last body of each resource is kept until anything changes, and answered before the
            # objects are gathered and sorted (a second at 150,000 pods): the benchmarks measure the
            # client, and a real server answers from its watch cache.
            key = (ns, list_rv, st.generation, offset, limit, protobuf)
            if cached is not None and cached[0] == key:
                body = cached[1]
            elif cont:
                items = self.state.continues.get(cont)
                if items is None:
                    raise ApiError(410, "Expired", "The provided continue parameter is too old")
            else:
                items = [data for (k_ns, _), (_, data) in sorted(st.objects[gvr].items()) if not ns or k_ns == ns]
        if body is None:
            page = items[offset:offset + limit] if limit else items[offset:]
            nxt = ""
            if limit and offset + limit < len(items):
                nxt = base64.b64encode(json.dumps({"rv": list_rv, "offset": offset + limit,
                                                   "gen": st.generation}).encode()).decode()
                self.state.continues[nxt] = items
            if protobuf:
                body = k8s_protobuf.list_body(api_version(gvr), RESOURCES[gvr][0], str(list_rv), nxt,
                                              [self.protobuf_item(d) for d in page])
            else:
                # Items without apiVersion and kind, as a real server sends them.
                strip = b'"apiVersion":"' + api_version(gvr).encode() + b'","kind":"' + RESOURCES[gvr][0].encode() + b'",'
                body = b"".join([b'{"kind":"', RESOURCES[gvr][0].encode(), b'List","apiVersion":"',
                                 api_version(gvr).encode(), b'","metadata":{"resourceVersion":"', str(list_rv).encode(),
                                 b'"', (b',"continue":"' + nxt.encode() + b'"') if nxt else b"", b'},"items":[',
                                 b",".join(d.replace(strip, b"", 1) for d in page), b"]}"])
        self.state.list_bodies[gvr] = (key, body)
        self.send_body(200, body, action, PROTOBUF if protobuf else "application/json")

    def send_body(self, code, body, action, content_type="application/json"):
        """Sends a body, chunked: in one chunk, as kube-apiserver (1.32) writes an encoded LIST at
        once; in pieces of 32 KB with a drop / slow / stall fault applied."""
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self.code = code
        kind = action.get("type") if action else None
        if kind is None:
            if body:
                self.write_chunk(body)
            self.wfile.write(b"0\r\n\r\n")
            return
        step = action.get("chunk_bytes", 65536) if kind == "slow" else 32768
        sent = 0
        view = memoryview(body)  # slices without copies: this server must outrun its clients
        for i in range(0, len(body), step):
            piece = view[i:i + step]
            if kind == "drop" and sent + len(piece) >= action.get("after_bytes", 0):
                piece = piece[:max(0, action.get("after_bytes", 0) - sent)]
                if piece:
                    self.write_chunk(piece)
                return self.abort()
            if kind == "stall" and sent == 0:
                time.sleep(action.get("seconds", 5))
            self.write_chunk(piece)
            sent += len(piece)
            if kind == "slow":
                time.sleep(action.get("delay_ms", 10) / 1000.0)
        self.wfile.write(b"0\r\n\r\n")

    def write_chunk(self, data):
        if len(data) <= 65536:  # one write: small pieces must not wait for each other
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), bytes(data)))
        else:  # no copy of a large piece
            self.wfile.write(b"%x\r\n" % len(data))
            self.wfile.write(data)
            self.wfile.write(b"\r\n")

    def write_events(self, lines):
        """Events in chunks of at most ~32 KB, whole events each, as a server flushing per event sends them
        (as protobuf frames on a protobuf watch)."""
        group, size = [], 0
        for line in lines:
            if getattr(self, "watch_gvr", None):
                line = self.protobuf_event(line, self.watch_gvr)
            group.append(line)
            size += len(line)
            if size >= 32768:
                self.write_chunk(b"".join(group))
                group, size = [], 0
        if group:
            self.write_chunk(b"".join(group))

    def abort(self):
        """Closes the connection without ending the body: a dropped connection mid-stream."""
        self.wfile.flush()
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.close_connection = True

    # --- WATCH ----------------------------------------------------------------------------------
    def watch(self, gvr, ns, query, action):
        st = self.state.store
        rv_param = query.get("resourceVersion", [""])[0]
        timeout = float(query.get("timeoutSeconds", ["1800"])[0])
        bookmarks = query.get("allowWatchBookmarks", [""])[0] in ("1", "true")
        deadline = time.time() + timeout
        protobuf = self.protobuf(gvr[0], RESOURCES[gvr][0])
        self.watch_gvr = gvr if protobuf else None
        self.send_response(200)
        self.send_header("Content-Type", PROTOBUF + ";stream=watch" if protobuf else "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self.code = 200
        key = resource_name(gvr)
        with self.state.requests_lock:
            self.state.watchers[key] = self.state.watchers.get(key, 0) + 1
        try:
            self.stream_events(gvr, ns, rv_param, deadline, bookmarks, action)
        finally:
            with self.state.requests_lock:
                self.state.watchers[key] -= 1

    def stream_events(self, gvr, ns, rv_param, deadline, bookmarks, action):
        st = self.state.store
        kind = action.get("type") if action else None
        sent = 0
        nsb = b'"namespace":"' + ns.encode() + b'"'
        with st.lock:
            generation, streams = st.generation, st.streams
            if rv_param in ("", "0"):
                since = st.rv
                initial = [b'{"type":"ADDED","object":' + d + b"}\n" for (k_ns, _), (_, d) in sorted(st.objects[gvr].items())
                           if not ns or k_ns == ns]
            else:
                since = int(rv_param)
                initial = []
                if since < st.compacted:
                    gone = json.dumps({"type": "ERROR", "object": status_body(
                        410, "Expired", "too old resource version: %d (%d)" % (since, st.compacted))}).encode() + b"\n"
                    self.write_events([gone])
                    self.wfile.write(b"0\r\n\r\n")
                    return
        pending = initial
        last_bookmark = time.time()
        while True:
            if pending or (kind in ("drop", "error_event", "stall") and sent >= action.get("after_events", 0)):
                if kind == "drop" and sent + len(pending) >= action.get("after_events", 0):
                    keep = pending[:max(0, action.get("after_events", 0) - sent)]
                    if keep:
                        self.write_events(keep)
                    return self.abort()
                if kind == "error_event" and sent + len(pending) >= action.get("after_events", 0):
                    keep = pending[:max(0, action.get("after_events", 0) - sent)]
                    code = action.get("code", 410)
                    keep.append(json.dumps({"type": "ERROR", "object": status_body(
                        code, "Expired" if code == 410 else "InternalError", "injected by the test")}).encode() + b"\n")
                    self.write_events(keep)
                    self.wfile.write(b"0\r\n\r\n")
                    return
                if kind == "stall" and sent + len(pending) >= action.get("after_events", 0):
                    keep = pending[:max(0, action.get("after_events", 0) - sent)]
                    if keep:
                        self.write_events(keep)
                    sent += len(keep)
                    pending = pending[len(keep):]
                    time.sleep(action.get("seconds", 5))
                    kind = None
                self.write_events(pending)
                sent += len(pending)
                pending = []
            now = time.time()
            if now >= deadline:
                self.wfile.write(b"0\r\n\r\n")
                return
            if bookmarks and now - last_bookmark >= self.state.bookmark_interval:
                last_bookmark = now
                with st.lock:
                    mark = {"type": "BOOKMARK", "object": {"kind": RESOURCES[gvr][0], "apiVersion": api_version(gvr),
                                                           "metadata": {"resourceVersion": str(st.rv)}}}
                self.write_events([json.dumps(mark).encode() + b"\n"])
            with st.lock:
                if st.generation != generation or st.streams != streams:
                    return self.abort()  # a "restart" or a dropped connection: the stream goes away
                fresh = st.since(gvr, since)
                if not fresh:
                    wait = min(deadline - now, self.state.bookmark_interval if bookmarks else 1.0, 1.0)
                    st.lock.wait(max(wait, 0.01))
                    if st.generation != generation or st.streams != streams:
                        return self.abort()  # a restart or a drop while waiting: nothing after it on this stream
                    fresh = st.since(gvr, since)
                if fresh:
                    since = fresh[-1][0]
                    pending = [line for _, line in fresh if not ns or nsb in line]

    # --- /_test/ --------------------------------------------------------------------------------
    def control(self, method, path, query, body):
        state, st = self.state, self.state.store
        data = json.loads(body) if body else {}
        if path == "/_test/objects" and method == "POST":
            with st.lock:
                for obj in data.get("objects", []):
                    gvr = KIND_TO_GVR.get((obj.get("kind"), obj.get("apiVersion")))
                    if not gvr:
                        return self.send_json(400, {"error": "unknown kind %s %s" % (obj.get("kind"), obj.get("apiVersion"))})
                    cur = st.objects[gvr].get(st.key(obj))
                    if cur:
                        for k in ("uid", "creationTimestamp"):
                            obj["metadata"][k] = cur[0]["metadata"][k]
                        st.put(gvr, obj)
                    else:
                        m = obj["metadata"]
                        m.setdefault("uid", str(uuid.uuid4()))
                        m.setdefault("creationTimestamp", now_rfc3339())
                        st.put(gvr, obj, "ADDED")
                rv = st.rv
            return self.send_json(200, {"resourceVersion": str(rv)})
        if path == "/_test/touch" and method == "POST":
            # Modifies `count` objects of a kind at once (an annotation set to a counter, and
            # status.updateTime when `update_time` is given): a burst of MODIFIED events, all in the
            # history before any watch sees the first (benchmarks).
            gvr = KIND_TO_GVR.get((data.get("kind"), data.get("apiVersion")))
            if not gvr:
                return self.send_json(400, {"error": "unknown kind %s %s" % (data.get("kind"), data.get("apiVersion"))})
            with st.lock:
                keys = list(st.objects[gvr])[:int(data.get("count", 1))]
                for i, k in enumerate(keys):
                    obj = st.objects[gvr][k][0]
                    obj["metadata"].setdefault("annotations", {})["kdesched.test/touch"] = str(i)
                    if data.get("update_time"):  # a NodeMetric reported again (koordlet)
                        obj.setdefault("status", {})["updateTime"] = data["update_time"]
                    st.put(gvr, obj)
                rv = st.rv
            return self.send_json(200, {"touched": len(keys), "resourceVersion": str(rv)})
        if path == "/_test/delete" and method == "POST":
            with st.lock:
                for ref in data.get("objects", []):
                    gvr = KIND_TO_GVR.get((ref.get("kind"), ref.get("apiVersion")))
                    k = (ref.get("namespace", ""), ref["name"])
                    if gvr and k in st.objects[gvr]:
                        st.delete(gvr, k)
            return self.send_json(200, {})
        if path == "/_test/objects" and method == "GET":
            kind = query.get("kind", [""])[0]
            with st.lock:
                items = [o for gvr, objs in st.objects.items() if RESOURCES[gvr][0] == kind for o, _ in objs.values()]
            return self.send_json(200, {"items": items})
        if path == "/_test/faults":
            with state.faults_lock:
                if method == "DELETE":
                    state.faults.clear()
                else:
                    state.faults.extend(data.get("rules", []))
            return self.send_json(200, {})
        if path == "/_test/compact":
            st.compact()
            return self.send_json(200, {"resourceVersion": str(st.rv)})
        if path == "/_test/drop_watches":  # every open watch connection reset, as by a load balancer
            with st.lock:
                st.streams += 1
                st.lock.notify_all()
            return self.send_json(200, {})
        if path == "/_test/restart":
            st.restart()
            state.continues.clear()
            return self.send_json(200, {"resourceVersion": str(st.rv)})
        if path == "/_test/settings":
            for k in ("rv0_ignores_limit", "graceful", "bookmark_interval"):
                if k in data:
                    setattr(state, k, data[k])
            if "tokens" in data:
                state.tokens = set(data["tokens"])
            if "forbid" in data:
                state.forbid = data["forbid"]
            if "not_served" in data:
                state.not_served = {(r.get("group", ""), r["resource"]) for r in data["not_served"]}
            if "unserved_groups" in data:
                state.unserved_groups = set(data["unserved_groups"])
            if "pdb_protected" in data:
                state.pdb_protected = {(p["namespace"], p["name"]) for p in data["pdb_protected"]}
            return self.send_json(200, {})
        if path == "/_test/requests":
            with state.requests_lock:
                if method == "DELETE":
                    state.requests.clear()
                    return self.send_json(200, {})
                return self.send_json(200, {"requests": list(state.requests)})
        if path == "/_test/watchers":
            with state.requests_lock:
                return self.send_json(200, dict(state.watchers))
        return self.send_json(404, {"error": "no such control endpoint"})


def watch_parent():
    """Exits with the process that started it, even one that crashed: no server outlives its test."""
    parent = os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)
    threading.Thread(target=watch, daemon=True).start()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--bind", default="127.0.0.1")
    p.add_argument("--tls-cert")
    p.add_argument("--tls-key")
    p.add_argument("--client-ca")
    p.add_argument("--token", action="append")
    p.add_argument("--bookmark-interval", type=float, default=60.0)
    p.add_argument("--history", type=int, default=200000)
    args = p.parse_args()
    Handler.state = State(args)
    ThreadingHTTPServer.request_queue_size = 256  # a descheduler opens a dozen watches at once

    class Server(ThreadingHTTPServer):
        def handle_error(self, request, client_address):
            # A client that closes its connection (a cancelled watch, a killed daemon) is no error.
            if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
                super().handle_error(request, client_address)

    server = Server((args.bind, args.port), Handler)
    server.daemon_threads = True
    if args.tls_cert:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(args.tls_cert, args.tls_key)
        if args.client_ca:
            ctx.load_verify_locations(args.client_ca)
            ctx.verify_mode = ssl.CERT_OPTIONAL
        server.socket = ctx.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
    print("READY %d" % server.server_address[1], flush=True)
    watch_parent()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
