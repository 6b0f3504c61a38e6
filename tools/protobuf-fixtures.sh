#!/bin/sh
# Regenerates tests/data/protobuf: creates the objects of objects.yaml on a real kube-apiserver
# (../shared/envtest, or the one of a running envtest WORKDIR given as $1), writes their status,
# and saves the server's own JSON and protobuf LIST of each built-in kind kdesched reads — the
# pairs tests/core/kube/test_protobuf.cpp decodes and compares. Needs kubectl, curl and python3.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
data="$here/tests/data/protobuf"
envtest=${KDESCHED_ENVTEST:-$here/../shared/envtest}
if [ $# -ge 1 ]; then
    workdir=$1
else
    workdir=$("$envtest/start.sh" | tail -1)
    trap '"$envtest/stop.sh" "$workdir"' EXIT
fi
. "$workdir/env"
export KUBECONFIG
kubectl create -f "$data/objects.yaml" >/dev/null
# The pods' resourceVersion before their status is written: the watch below replays from it.
rv=$(curl -sf --cacert "$WORKDIR/ca.crt" -H "Authorization: Bearer $ADMIN_TOKEN" \
    "$SERVER/api/v1/namespaces/kd-fixtures/pods" | python3 -c 'import json,sys; print(json.load(sys.stdin)["metadata"]["resourceVersion"])')
status() { kubectl patch "$@" --subresource=status --type=merge >/dev/null; }
status node kd-node-1 -p '{"status":{"allocatable":{"cpu":"7800m","memory":"30Gi","pods":"110","ephemeral-storage":"100Gi"},"conditions":[{"type":"MemoryPressure","status":"False","reason":"KubeletHasSufficientMemory","lastHeartbeatTime":"2026-11-20T10:00:00Z","lastTransitionTime":"2026-11-20T10:00:00Z"},{"type":"Ready","status":"True","reason":"KubeletReady","lastHeartbeatTime":"2026-11-20T10:00:00Z","lastTransitionTime":"2026-11-20T10:00:00Z"}]}}'
status node kd-node-2 -p '{"status":{"allocatable":{"cpu":"4","memory":"8Gi"},"conditions":[{"type":"Ready","status":"False","reason":"KubeletNotReady","lastHeartbeatTime":"2026-11-20T10:00:00Z","lastTransitionTime":"2026-11-20T10:00:00Z"}]}}'
ns="-n kd-fixtures"
status $ns pod web-1 -p '{"status":{"phase":"Running","startTime":"2026-11-20T10:00:00Z","conditions":[{"type":"PodScheduled","status":"True","lastTransitionTime":"2026-11-20T10:00:00Z"},{"type":"Ready","status":"False","reason":"ContainersNotReady","message":"containers with unready status: [app]","lastTransitionTime":"2026-11-20T10:00:00Z"}],"initContainerStatuses":[{"name":"setup","image":"busybox","imageID":"","ready":false,"restartCount":0,"state":{"terminated":{"exitCode":0,"reason":"Completed","startedAt":"2026-11-20T10:00:00Z","finishedAt":"2026-11-20T10:00:01Z"}}},{"name":"proxy","image":"envoy","imageID":"","ready":true,"restartCount":1,"started":true,"state":{"running":{"startedAt":"2026-11-20T10:00:02Z"}}}],"containerStatuses":[{"name":"app","image":"nginx","imageID":"","ready":false,"restartCount":7,"state":{"waiting":{"reason":"CrashLoopBackOff","message":"back-off 5m0s restarting failed container"}},"lastState":{"terminated":{"exitCode":137,"reason":"OOMKilled","startedAt":"2026-11-20T10:00:03Z","finishedAt":"2026-11-20T10:00:09Z"}}},{"name":"log","image":"fluentbit","imageID":"","ready":true,"restartCount":0,"started":true,"state":{"running":{"startedAt":"2026-11-20T10:00:02Z"}}}]}}'
status $ns replicaset web-5d8f -p '{"status":{"replicas":3,"readyReplicas":2,"availableReplicas":2}}'
status $ns deployment web -p '{"status":{"replicas":4,"readyReplicas":3,"availableReplicas":3,"updatedReplicas":4}}'
status $ns statefulset db -p '{"status":{"replicas":2,"readyReplicas":1,"availableReplicas":1,"currentReplicas":2}}'
status $ns job report -p '{"status":{"active":3,"ready":2,"startTime":"2026-11-20T10:00:00Z"}}'
status $ns daemonset agent -p '{"status":{"desiredNumberScheduled":2,"numberReady":1,"currentNumberScheduled":2,"numberMisscheduled":0}}'
status $ns replicationcontroller legacy -p '{"status":{"replicas":2,"readyReplicas":2,"availableReplicas":2}}'
status $ns poddisruptionbudget web -p '{"status":{"disruptionsAllowed":1,"currentHealthy":3,"desiredHealthy":2,"expectedPods":3,"observedGeneration":1}}'
status $ns pod batch-1 -p '{"status":{"phase":"Failed","reason":"Evicted","startTime":"2026-11-20T09:59:58Z","message":"The node was low on resource: memory.","containerStatuses":[{"name":"main","image":"busybox","imageID":"","ready":false,"restartCount":2,"state":{"terminated":{"exitCode":1,"reason":"Error","startedAt":"2026-11-20T10:00:00Z","finishedAt":"2026-11-20T10:05:00Z"}}}]}}'
# A pod being deleted: its finalizer keeps it, with a deletionTimestamp.
kubectl $ns delete pod batch-1 --wait=false >/dev/null

get() {  # PATH NAME: the response in JSON and in protobuf
    for pair in "json application/json" "pb application/vnd.kubernetes.protobuf"; do
        set -- "$1" "$2" $pair
        curl -s --cacert "$WORKDIR/ca.crt" -H "Authorization: Bearer $ADMIN_TOKEN" -H "Accept: $4" \
            "$SERVER$1" -o "$data/$2.$3"
    done
}
# The pods' watch events since the status writes and the deletion (the server ends it after 2 s).
get "/api/v1/namespaces/kd-fixtures/pods?watch=1&allowWatchBookmarks=true&timeoutSeconds=2&resourceVersion=$rv" pods-watch
get /api/v1/nodes nodes
get /api/v1/namespaces/kd-fixtures/pods pods
get /api/v1/namespaces namespaces
get /apis/apps/v1/namespaces/kd-fixtures/replicasets replicasets
get /apis/apps/v1/namespaces/kd-fixtures/deployments deployments
get /apis/apps/v1/namespaces/kd-fixtures/statefulsets statefulsets
get /apis/batch/v1/namespaces/kd-fixtures/jobs jobs
get /apis/apps/v1/namespaces/kd-fixtures/daemonsets daemonsets
get /api/v1/namespaces/kd-fixtures/replicationcontrollers replicationcontrollers
get /apis/policy/v1/namespaces/kd-fixtures/poddisruptionbudgets poddisruptionbudgets
echo "wrote $(ls "$data" | grep -c '\.pb$') JSON/protobuf pairs into $data"
