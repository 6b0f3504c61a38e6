"""Kubernetes objects (as JSON) in the API server's protobuf encoding, for the test API server.

An encoder written apart from kdesched's decoder (core/cluster/decode/protobuf_input.cpp), from
the same facts: the field numbers of k8s.io/api and apimachinery's generated.proto, which
tests/data/protobuf (bodies a real kube-apiserver wrote) pins for the decoder. It encodes the
fields the test objects and the benchmark's generated cluster carry — managedFields, container
images, ports, statuses: what a real body is made of — and leaves out the rest. Maps are written
with sorted keys, as Go's protobuf marshalling writes them.

  envelope(api_version, kind, raw)      "k8s\\0" + runtime.Unknown
  encode(obj)                           the object's message (its kind from obj["kind"])
  list_body(api_version, kind, rv, continue_token, item_messages)
  watch_frame(type, api_version, kind, message)
  status_message(code, reason, message)
"""

import calendar
import json
import time

MAGIC = b"k8s\x00"


def _varint(n):
    n &= 0xFFFFFFFFFFFFFFFF  # negative int32/int64: two's complement, ten bytes
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _bytes(num, data):
    return _varint(num << 3 | 2) + _varint(len(data)) + data


def _number(num, n):
    return _varint(num << 3) + _varint(n)


def _time(text):
    text = text.split(".")[0].rstrip("Z")
    seconds = calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%S"))
    return _number(1, seconds) + _number(2, 0)


# A schema is a dict: JSON name -> (number, type[, message schema]). Types: s string, b bool,
# i integer, t metav1.Time, q resource.Quantity, ios IntOrString, m message, rm repeated message,
# rs repeated string, ms map<string,string>, mq map<string,Quantity>, raw FieldsV1 (JSON kept as
# bytes), inline (a message whose JSON fields sit in the enclosing object).
OWNER = {"kind": (1, "s"), "name": (3, "s"), "uid": (4, "s"), "apiVersion": (5, "s"),
         "controller": (6, "b"), "blockOwnerDeletion": (7, "b")}
MANAGED = {"manager": (1, "s"), "operation": (2, "s"), "apiVersion": (3, "s"), "time": (4, "t"),
           "fieldsType": (6, "s"), "fieldsV1": (7, "raw"), "subresource": (8, "s")}
META = {"name": (1, "s"), "generateName": (2, "s"), "namespace": (3, "s"), "uid": (5, "s"),
        "resourceVersion": (6, "s"), "generation": (7, "i"), "creationTimestamp": (8, "t"),
        "deletionTimestamp": (9, "t"), "deletionGracePeriodSeconds": (10, "i"), "labels": (11, "ms"),
        "annotations": (12, "ms"), "ownerReferences": (13, "rm", OWNER), "finalizers": (14, "rs"),
        "managedFields": (17, "rm", MANAGED)}
REQUIREMENT = {"key": (1, "s"), "operator": (2, "s"), "values": (3, "rs")}
LABEL_SELECTOR = {"matchLabels": (1, "ms"), "matchExpressions": (2, "rm", REQUIREMENT)}
TERM = {"matchExpressions": (1, "rm", REQUIREMENT), "matchFields": (2, "rm", REQUIREMENT)}
POD_AFFINITY_TERM = {"labelSelector": (1, "m", LABEL_SELECTOR), "namespaces": (2, "rs"), "topologyKey": (3, "s"),
                     "namespaceSelector": (4, "m", LABEL_SELECTOR), "matchLabelKeys": (5, "rs"),
                     "mismatchLabelKeys": (6, "rs")}
POD_AFFINITY = {"requiredDuringSchedulingIgnoredDuringExecution": (1, "rm", POD_AFFINITY_TERM),
                "preferredDuringSchedulingIgnoredDuringExecution":
                    (2, "rm", {"weight": (1, "i"), "podAffinityTerm": (2, "m", POD_AFFINITY_TERM)})}
AFFINITY = {"nodeAffinity": (1, "m", {"requiredDuringSchedulingIgnoredDuringExecution":
                                      (1, "m", {"nodeSelectorTerms": (1, "rm", TERM)}),
                                      "preferredDuringSchedulingIgnoredDuringExecution":
                                      (2, "rm", {"weight": (1, "i"), "preference": (2, "m", TERM)})}),
            "podAffinity": (2, "m", POD_AFFINITY), "podAntiAffinity": (3, "m", POD_AFFINITY)}
TOLERATION = {"key": (1, "s"), "operator": (2, "s"), "value": (3, "s"), "effect": (4, "s"),
              "tolerationSeconds": (5, "i")}
RESOURCES = {"limits": (1, "mq"), "requests": (2, "mq")}
CONTAINER = {"name": (1, "s"), "image": (2, "s"), "command": (3, "rs"), "args": (4, "rs"),
             "ports": (6, "rm", {"name": (1, "s"), "hostPort": (2, "i"), "containerPort": (3, "i"),
                                 "protocol": (4, "s")}),
             "env": (7, "rm", {"name": (1, "s"), "value": (2, "s")}),
             "resources": (8, "m", RESOURCES),
             "volumeMounts": (9, "rm", {"name": (1, "s"), "readOnly": (2, "b"), "mountPath": (3, "s")}),
             "terminationMessagePath": (13, "s"), "imagePullPolicy": (14, "s"), "restartPolicy": (24, "s")}
VOLUME_SOURCE = {"hostPath": (1, "m", {"path": (1, "s"), "type": (2, "s")}),
                 "emptyDir": (2, "m", {"medium": (1, "s"), "sizeLimit": (2, "q")}),
                 "secret": (6, "m", {"secretName": (1, "s")}),
                 "persistentVolumeClaim": (10, "m", {"claimName": (1, "s"), "readOnly": (2, "b")}),
                 "configMap": (19, "m", {"": (1, "inline", {"name": (1, "s")})}),
                 "projected": (26, "m", {"defaultMode": (2, "i")}),
                 "ephemeral": (29, "m", {})}
VOLUME = {"name": (1, "s"), "": (2, "inline", VOLUME_SOURCE)}
SPREAD_CONSTRAINT = {"maxSkew": (1, "i"), "topologyKey": (2, "s"), "whenUnsatisfiable": (3, "s"),
                     "labelSelector": (4, "m", LABEL_SELECTOR), "minDomains": (5, "i"),
                     "nodeAffinityPolicy": (6, "s"), "nodeTaintsPolicy": (7, "s"), "matchLabelKeys": (8, "rs")}
POD_SPEC = {"volumes": (1, "rm", VOLUME), "containers": (2, "rm", CONTAINER), "restartPolicy": (3, "s"),
            "terminationGracePeriodSeconds": (4, "i"), "dnsPolicy": (6, "s"), "nodeSelector": (7, "ms"),
            "serviceAccountName": (8, "s"), "nodeName": (10, "s"), "hostNetwork": (11, "b"),
            "affinity": (18, "m", AFFINITY), "schedulerName": (19, "s"), "initContainers": (20, "rm", CONTAINER),
            "tolerations": (22, "rm", TOLERATION), "priorityClassName": (24, "s"), "priority": (25, "i"),
            "runtimeClassName": (29, "s"), "overhead": (32, "mq"),
            "topologySpreadConstraints": (33, "rm", SPREAD_CONSTRAINT)}
CONTAINER_STATE = {"waiting": (1, "m", {"reason": (1, "s"), "message": (2, "s")}),
                   "running": (2, "m", {"startedAt": (1, "t")}),
                   "terminated": (3, "m", {"exitCode": (1, "i"), "signal": (2, "i"), "reason": (3, "s"),
                                           "message": (4, "s"), "startedAt": (5, "t"), "finishedAt": (6, "t"),
                                           "containerID": (7, "s")})}
CONTAINER_STATUS = {"name": (1, "s"), "state": (2, "m", CONTAINER_STATE), "lastState": (3, "m", CONTAINER_STATE),
                    "ready": (4, "b"), "restartCount": (5, "i"), "image": (6, "s"),
                    "imageID": (7, "s"), "containerID": (8, "s"), "started": (9, "b")}
POD_STATUS = {"phase": (1, "s"),
              "conditions": (2, "rm", {"type": (1, "s"), "status": (2, "s"), "lastProbeTime": (3, "t"),
                                       "lastTransitionTime": (4, "t"), "reason": (5, "s"), "message": (6, "s")}),
              "message": (3, "s"), "reason": (4, "s"), "hostIP": (5, "s"), "podIP": (6, "s"), "startTime": (7, "t"),
              "containerStatuses": (8, "rm", CONTAINER_STATUS), "qosClass": (9, "s"),
              "initContainerStatuses": (10, "rm", CONTAINER_STATUS),
              "ephemeralContainerStatuses": (13, "rm", CONTAINER_STATUS)}
NODE_SPEC = {"podCIDR": (1, "s"), "providerID": (3, "s"), "unschedulable": (4, "b"),
             "taints": (5, "rm", {"key": (1, "s"), "value": (2, "s"), "effect": (3, "s"), "timeAdded": (4, "t")})}
NODE_STATUS = {"capacity": (1, "mq"), "allocatable": (2, "mq"), "phase": (3, "s"),
               "conditions": (4, "rm", {"type": (1, "s"), "status": (2, "s"), "lastHeartbeatTime": (3, "t"),
                                        "lastTransitionTime": (4, "t"), "reason": (5, "s"), "message": (6, "s")})}

# kind -> (spec schema, status schema); metadata is META for every kind.
KINDS = {
    "Pod": (POD_SPEC, POD_STATUS),
    "Node": (NODE_SPEC, NODE_STATUS),
    "Namespace": ({"finalizers": (1, "rs")}, {"phase": (1, "s")}),
    "ReplicaSet": ({"replicas": (1, "i"), "selector": (2, "m", LABEL_SELECTOR)},
                   {"replicas": (1, "i"), "readyReplicas": (4, "i"), "availableReplicas": (5, "i")}),
    "Deployment": ({"replicas": (1, "i"), "selector": (2, "m", LABEL_SELECTOR)},
                   {"replicas": (2, "i"), "updatedReplicas": (3, "i"), "availableReplicas": (4, "i"),
                    "readyReplicas": (7, "i")}),
    "StatefulSet": ({"replicas": (1, "i"), "selector": (2, "m", LABEL_SELECTOR), "serviceName": (5, "s")},
                    {"replicas": (2, "i"), "readyReplicas": (3, "i"), "currentReplicas": (4, "i")}),
    "ReplicationController": ({"replicas": (1, "i"), "selector": (2, "ms")},
                              {"replicas": (1, "i"), "readyReplicas": (4, "i"), "availableReplicas": (5, "i")}),
    "Job": ({"parallelism": (1, "i"), "completions": (2, "i"), "selector": (4, "m", LABEL_SELECTOR)},
            {"startTime": (2, "t"), "active": (4, "i"), "succeeded": (5, "i"), "failed": (6, "i"), "ready": (9, "i")}),
    "DaemonSet": ({"selector": (1, "m", LABEL_SELECTOR)},
                  {"currentNumberScheduled": (1, "i"), "numberMisscheduled": (2, "i"),
                   "desiredNumberScheduled": (3, "i"), "numberReady": (4, "i")}),
    "PersistentVolumeClaim": ({"accessModes": (1, "rs"), "volumeName": (3, "s"), "storageClassName": (5, "s"),
                               "volumeMode": (6, "s")},
                              {"phase": (1, "s"), "accessModes": (2, "rs")}),
    "PodDisruptionBudget": ({"minAvailable": (1, "ios"), "selector": (2, "m", LABEL_SELECTOR),
                             "maxUnavailable": (3, "ios")},
                            {"observedGeneration": (1, "i"), "disruptionsAllowed": (3, "i"),
                             "currentHealthy": (4, "i"), "desiredHealthy": (5, "i"), "expectedPods": (6, "i")}),
}


def _message(obj, schema):
    out = [_field(schema[name], value) for name, value in obj.items() if name in schema]
    inline = schema.get("")
    if inline:
        inner = {k: v for k, v in obj.items() if k in inline[2]}
        out.append(_bytes(inline[0], _message(inner, inline[2])))
    return b"".join(out)


def _quantity(v):
    return _bytes(1, str(v).encode())


def _field(spec, value):
    num, typ = spec[0], spec[1]
    if value is None:
        return b""
    if typ == "s":
        return _bytes(num, value.encode())
    if typ == "b":
        return _number(num, 1 if value else 0)
    if typ == "i":
        return _number(num, int(value))
    if typ == "t":
        return _bytes(num, _time(value))
    if typ == "q":
        return _bytes(num, _quantity(value))
    if typ == "ios":
        inner = _number(1, 1) + _bytes(3, value.encode()) if isinstance(value, str) else _number(1, 0) + _number(2, value)
        return _bytes(num, inner)
    if typ == "m":
        return _bytes(num, _message(value, spec[2]))
    if typ == "rm":
        return b"".join(_bytes(num, _message(v, spec[2])) for v in value)
    if typ == "rs":
        return b"".join(_bytes(num, v.encode()) for v in value)
    if typ in ("ms", "mq"):
        val = (lambda v: _bytes(2, _quantity(v))) if typ == "mq" else (lambda v: _bytes(2, (v or "").encode()))
        return b"".join(_bytes(num, _bytes(1, k.encode()) + val(value[k])) for k in sorted(value))
    if typ == "raw":
        return _bytes(num, _bytes(1, json.dumps(value, separators=(",", ":")).encode()))
    raise ValueError("unknown schema type " + typ)


def supported(kind):
    return kind in KINDS


def encode(obj):
    spec, status = KINDS[obj["kind"]]
    return b"".join([_bytes(1, _message(obj.get("metadata") or {}, META)),
                     _bytes(2, _message(obj.get("spec") or {}, spec)),
                     _bytes(3, _message(obj.get("status") or {}, status))])


def envelope(api_version, kind, raw):
    type_meta = _bytes(1, api_version.encode()) + _bytes(2, kind.encode())
    return MAGIC + _bytes(1, type_meta) + _bytes(2, raw) + _bytes(3, b"") + _bytes(4, b"")


def list_body(api_version, kind, resource_version, continue_token, items):
    list_meta = _bytes(2, resource_version.encode()) + _bytes(3, continue_token.encode())
    raw = _bytes(1, list_meta) + b"".join(_bytes(2, item) for item in items)
    return envelope(api_version, kind + "List", raw)


def watch_frame(type_, api_version, kind, message):
    event = _bytes(1, type_.encode()) + _bytes(2, _bytes(1, envelope(api_version, kind, message)))
    return len(event).to_bytes(4, "big") + event


def status_message(code, reason, message):
    return _bytes(1, b"") + _bytes(2, b"Failure") + _bytes(3, message.encode()) + _bytes(4, reason.encode()) + \
        _number(6, code)
