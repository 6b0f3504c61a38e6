#!/usr/bin/env bash
# Scaffolds a third-party kdesched plugin, built out of tree against the installed SDK:
#   tools/new-plugin.sh NAME [DIR]
# NAME: the plugin's name, CamelCase (PodsPerNodeCap) or kebab/snake case (pods-per-node-cap);
# the class is its CamelCase form, the files its snake_case form. DIR: where to write it (default
# ./NAME in kebab case); it must not exist or be empty. Nothing is written when an argument is bad.
# The folder builds, passes its own test and runs in `kdesched simulate` as generated; see its
# README.md and docs/plugin-guide.md.
set -eu

usage() {
    echo "usage: $0 NAME [DIR]" >&2
    echo "  NAME  the plugin's name: CamelCase (MyPlugin) or kebab/snake case (my-plugin), a letter first" >&2
    echo "  DIR   the folder to create (default: ./NAME in kebab case); must not exist or be empty" >&2
}

fail() {
    echo "new-plugin.sh: $*" >&2
    exit 1
}

if [ "$#" -ge 1 ] && { [ "$1" = "-h" ] || [ "$1" = "--help" ]; }; then
    usage
    exit 0
fi
if [ "$#" -lt 1 ] || [ "$#" -gt 2 ]; then
    if [ "$#" -lt 1 ]; then echo "new-plugin.sh: missing the plugin NAME" >&2; else echo "new-plugin.sh: too many arguments" >&2; fi
    usage
    exit 2
fi
name=$1
[ -n "$name" ] || fail "the plugin name is empty"
# Letters and digits, words joined by single - or _: every derived form (class, file, folder,
# CMake target) is then a valid identifier or path element without escaping.
if ! printf '%s' "$name" | grep -Eq '^[A-Za-z][A-Za-z0-9]*([-_][A-Za-z0-9]+)*$'; then
    fail "\"$name\" is not a valid plugin name: use letters and digits, a letter first, words joined by - or _ (e.g. MyPlugin, my-plugin)"
fi
[ "${#name}" -le 63 ] || fail "\"$name\" is longer than 63 characters"

# kebab: words split at - and _ and at a lower→upper case change (HTTPCheck → http-check).
kebab=$(printf '%s' "$name" | sed -E 's/([a-z0-9])([A-Z])/\1-\2/g; s/([A-Z]+)([A-Z][a-z])/\1-\2/g' |
    tr '_' '-' | tr '[:upper:]' '[:lower:]')
snake=$(printf '%s' "$kebab" | tr '-' '_')
# CMake reserves these target names (the plugin's target is the snake_case name).
case $snake in
    all | clean | help | install | install_local | install_strip | list_install_components | package | \
        package_source | preinstall | rebuild_cache | edit_cache | test)
        fail "\"$name\" would make the CMake target \"$snake\", a name CMake reserves: choose another" ;;
esac
# A CamelCase name is kept as written (HTTPCheck stays HTTPCheck); others are capitalised word by word.
if printf '%s' "$name" | grep -Eq '^[A-Z][A-Za-z0-9]*$'; then
    class=$name
else
    class=$(printf '%s' "$kebab" | awk -F- '{ for (i = 1; i <= NF; i++) printf "%s%s", toupper(substr($i, 1, 1)), substr($i, 2) }')
fi

dir=${2-./$kebab}
[ -n "$dir" ] || fail "the target folder is empty"
if [ -e "$dir" ] || [ -L "$dir" ]; then
    [ -d "$dir" ] || fail "$dir exists and is not a folder"
    [ -z "$(ls -A "$dir")" ] || fail "$dir exists and is not empty"
fi

# Written into a temporary folder beside the target and moved into place at the end, so that a
# failure half-way leaves nothing behind.
parent=$(dirname "$dir")
mkdir -p "$parent"
tmp=$(mktemp -d "$parent/.new-plugin.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Fills a template from stdin: @CLASS@, @SNAKE@, @KEBAB@.
render() {
    sed -e "s/@CLASS@/$class/g" -e "s/@SNAKE@/$snake/g" -e "s/@KEBAB@/$kebab/g" >"$tmp/$1"
}

render CMakeLists.txt <<'EOF'
# @CLASS@: a kdesched plugin built out of tree against the *installed* SDK:
#   cmake -S . -B build -DCMAKE_PREFIX_PATH=<where kdesched's SDK is installed>
#   cmake --build build && (cd build && ctest --output-on-failure)
cmake_minimum_required(VERSION 3.16)
project(@SNAKE@ CXX)
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)

find_package(kdesched-sdk 1.0 REQUIRED)   # kdesched::sdk, kdesched_add_plugin(), kdesched_target_api()

kdesched_add_plugin(@SNAKE@ @SNAKE@.cpp)
# The oldest host it loads on: plugin API 1.0. Raise it when you use something newer (the SDK
# says which minor a member needs when it does not compile).
kdesched_target_api(@SNAKE@ 0)
set_target_properties(@SNAKE@ PROPERTIES PREFIX "")   # @SNAKE@.so

# Unit tests on the SDK's fake host, when Catch2 v2 is available.
find_package(Catch2 2 QUIET)
if(Catch2_FOUND)
  enable_testing()
  add_executable(@SNAKE@_test @SNAKE@_test.cpp)
  target_link_libraries(@SNAKE@_test PRIVATE kdesched::sdk Catch2::Catch2WithMain)
  add_test(NAME @SNAKE@_test COMMAND @SNAKE@_test)
else()
  message(STATUS "Catch2 2 not found: @SNAKE@_test is not built")
endif()
EOF

render "$snake.hpp" <<'EOF'
// @CLASS@: a kdesched balance plugin. As generated it evicts the pods that match `labelSelector`
// (in `namespaces`), at most `maxPerNode` per node and cycle, oldest first; replace the policy
// in balance() with yours. See docs/plugin-guide.md in kdesched.
#pragma once

#include <kdesched/eviction_loop.hpp>
#include <kdesched/label_selector.hpp>
#include <kdesched/namespaces.hpp>
#include <kdesched/plugin.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace @SNAKE@_plugin {

// The plugin's args (the profile's pluginConfig[].args), decoded strictly: an unknown key or a
// wrong type is an error naming its path. Defaults are the member initialisers.
struct @CLASS@Args {
    std::optional<kd::LabelSelector> labelSelector;  // required: which pods to evict
    std::optional<kd::Namespaces> namespaces;        // absent = every namespace
    int64_t maxPerNode = 1;

    template <class V>
    void fields(V& v) {
        v("labelSelector", labelSelector);
        v("namespaces", namespaces);
        v("maxPerNode", maxPerNode);
    }
    // Runs after decoding; the nested kd::LabelSelector and kd::Namespaces check themselves.
    void validate(kd::Errors& errs, const std::string& path) const {
        if (!labelSelector || labelSelector->empty())
            errs.add(kd::field_path(path, "labelSelector"), "required (an empty selector would match every pod)");
        if (maxPerNode < 1) errs.add(kd::field_path(path, "maxPerNode"), "must be >= 1");
    }
};

class @CLASS@ {
public:
    static constexpr const char* kName = "@CLASS@";  // the name profiles use
    static constexpr const char* kVersion = "0.1.0";
    static constexpr const char* kDescription = "evicts the pods matching labelSelector, oldest first";
    using Args = @CLASS@Args;

    @CLASS@(kd::Host&, Args args) : args_(std::move(args)) {}

    void balance(kd::Cycle& cycle) {
        auto snap = cycle.snapshot();
        for (auto node : snap.nodes()) {
            std::vector<kd::Pod> candidates;
            for (auto pod : snap.pods_on_node(node.name()))
                if (selected(pod) && cycle.filter(pod).allowed) candidates.push_back(pod);
            // Oldest first, ties by namespace/name: the same snapshot always gives the same order.
            std::sort(candidates.begin(), candidates.end(), [](const kd::Pod& a, const kd::Pod& b) {
                return std::make_tuple(a.creation_ms(), a.ns(), a.name()) <
                       std::make_tuple(b.creation_ms(), b.ns(), b.name());
            });
            // The host runs the filters, PreEvictionFilter (nodeFit) and the eviction limits for
            // each request; the loop passes over refused pods and stops at the node's or the
            // cycle's limit.
            kd::EvictionLoop how;
            how.reason = "pod matches @CLASS@'s labelSelector";
            how.stop_at_node_limit = true;
            how.at_most = static_cast<size_t>(args_.maxPerNode);
            kd::EvictionTally tally = kd::evict_in_order(cycle, candidates, how);
            // Why the pods never asked about stayed, for `kdesched simulate --explain`.
            for (size_t i = candidates.size() - tally.untried; i < candidates.size(); ++i)
                cycle.report_pod(candidates[i], "skipped",
                                 tally.reached_at_most ? "MaxPerNode: the node gave its share" : "LimitReached");
            if (tally.stopped_by == KD_EVICT_LIMIT_TOTAL) return;  // no later request can succeed
        }
    }

private:
    bool selected(const kd::Pod& pod) const {
        if (args_.namespaces && !args_.namespaces->allows(pod.ns())) return false;
        return args_.labelSelector->matches([&](const std::string& key) { return pod.labels().get(key); });
    }

    Args args_;
};

}  // namespace @SNAKE@_plugin
EOF

render "$snake.cpp" <<'EOF'
// The library's one export: the module holding @CLASS@.
#include "@SNAKE@.hpp"

KDESCHED_PLUGIN(@SNAKE@_plugin::@CLASS@)
EOF

render "${snake}_test.cpp" <<'EOF'
// @CLASS@ on the SDK's fake host: no cluster, no daemon. The fake host runs the host's eviction
// pipeline (filters, PreEvictionFilter, limits, the evict plugin) and records every request.
#include "@SNAKE@.hpp"

#include <kdesched/testing.hpp>

#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>
#include <vector>

using Names = std::vector<std::string>;

namespace {

// node-1 runs two selected pods (demo-old the older) and one other; node-2 one selected pod.
kd::testing::SnapshotBuilder cluster() {
    kd::testing::SnapshotBuilder b;
    b.node("node-1");
    b.node("node-2");
    b.pod("default", "demo-new").on("node-1").label("app", "demo").created(b.now_ms() - 60'000);
    b.pod("default", "demo-old").on("node-1").label("app", "demo").created(b.now_ms() - 120'000);
    b.pod("default", "other").on("node-1").label("app", "other");
    b.pod("default", "demo-2").on("node-2").label("app", "demo");
    return b;
}

const char* kArgs = R"({"labelSelector": {"matchLabels": {"app": "demo"}}})";

}  // namespace

TEST_CASE("evicts the selected pods, oldest first, at most maxPerNode per node") {
    auto b = cluster();
    kd::testing::FakeHost host;
    auto plugin = host.instantiate<@SNAKE@_plugin::@CLASS@>(kArgs);
    plugin.balance(b.build());
    CHECK(host.evicted() == Names{"default/demo-old", "default/demo-2"});
    CHECK(host.reports() == Names{"pod default/demo-new skipped=MaxPerNode: the node gave its share"});
}

TEST_CASE("the host's limits and filters have the last word") {
    auto b = cluster();
    kd::testing::FakeHost host;
    host.limits.total = 1;
    host.on_pre_eviction_filter = [](const kd::Pod& pod) {
        return pod.name() == "demo-old" ? kd::Verdict::reject("NodeFit") : kd::Verdict::allow();
    };
    auto plugin = host.instantiate<@SNAKE@_plugin::@CLASS@>(kArgs);
    plugin.balance(b.build());
    REQUIRE(host.evictions().size() == 3);
    CHECK(host.evictions()[0].outcome.code == KD_EVICT_FILTERED);  // demo-old: no other node fits
    CHECK(host.evictions()[0].outcome.plugin == "DefaultEvictor");
    CHECK(host.evicted() == Names{"default/demo-new"});
    CHECK(host.evictions()[2].outcome.code == KD_EVICT_LIMIT_TOTAL);  // demo-2: the cycle is over
}

TEST_CASE("bad args are reported with their field paths") {
    kd::testing::FakeHost host;
    try {
        host.instantiate<@SNAKE@_plugin::@CLASS@>(R"({"maxPerNode": 0})");
        FAIL("create should fail");
    } catch (const std::runtime_error& e) {
        CHECK(std::string(e.what()) ==
              "labelSelector: required (an empty selector would match every pod)\nmaxPerNode: must be >= 1");
    }
}
EOF

render profile.yaml <<'EOF'
# @CLASS@ at balance; the in-house DefaultEvictor filters (nodeFit: is there another node for the
# pod?) and evicts. Try it: kdesched simulate --plugin-dir <build dir> --config profile.yaml --cluster cluster.json --explain
apiVersion: descheduler/v1alpha2
kind: DeschedulerConfiguration
deschedulingInterval: 1m
profiles:
- name: @KEBAB@
  plugins:
    balance:
      enabled:
        - name: @CLASS@
    evict:
      disabled:
        - name: "*"
      enabled:
        - name: DefaultEvictor
    filter:
      disabled:
        - name: "*"
      enabled:
        - name: DefaultEvictor
  pluginConfig:
  - name: @CLASS@
    args:
      labelSelector:
        matchLabels:
          app: demo
      maxPerNode: 1
  - name: DefaultEvictor
    args:
      nodeFit: true
EOF

# Two nodes; node-1 runs the two pods of Deployment demo, node-2 one pod of Deployment other.
# The profile evicts the older demo pod (default/demo-5d4c8b7f6-a1b2c); its ReplicaSet makes a new one.
render cluster.json <<'EOF'
{"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": [
{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-1", "uid": "uid-node-1", "creationTimestamp": "2026-03-01T08:00:00Z", "labels": {"kubernetes.io/hostname": "node-1"}}, "spec": {}, "status": {"allocatable": {"cpu": "4", "memory": "16Gi", "pods": "110"}, "capacity": {"cpu": "4", "memory": "16Gi", "pods": "110"}, "conditions": [{"type": "Ready", "status": "True"}]}},
{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-2", "uid": "uid-node-2", "creationTimestamp": "2026-03-01T08:00:00Z", "labels": {"kubernetes.io/hostname": "node-2"}}, "spec": {}, "status": {"allocatable": {"cpu": "4", "memory": "16Gi", "pods": "110"}, "capacity": {"cpu": "4", "memory": "16Gi", "pods": "110"}, "conditions": [{"type": "Ready", "status": "True"}]}},
{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "demo", "namespace": "default", "uid": "uid-deploy-demo", "creationTimestamp": "2026-03-01T08:00:00Z"}, "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "demo"}}}, "status": {"replicas": 2, "readyReplicas": 2}},
{"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "demo-5d4c8b7f6", "namespace": "default", "uid": "uid-rs-demo", "creationTimestamp": "2026-03-01T08:00:00Z", "ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "demo", "uid": "uid-deploy-demo", "controller": true}]}, "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "demo"}}}, "status": {"replicas": 2, "readyReplicas": 2}},
{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "other", "namespace": "default", "uid": "uid-deploy-other", "creationTimestamp": "2026-03-01T08:00:00Z"}, "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "other"}}}, "status": {"replicas": 1, "readyReplicas": 1}},
{"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "other-6f7b9c8d5", "namespace": "default", "uid": "uid-rs-other", "creationTimestamp": "2026-03-01T08:00:00Z", "ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "other", "uid": "uid-deploy-other", "controller": true}]}, "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "other"}}}, "status": {"replicas": 1, "readyReplicas": 1}},
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "demo-5d4c8b7f6-a1b2c", "namespace": "default", "uid": "uid-pod-demo-a1b2c", "creationTimestamp": "2026-03-01T08:10:00Z", "labels": {"app": "demo"}, "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "demo-5d4c8b7f6", "uid": "uid-rs-demo", "controller": true}]}, "spec": {"nodeName": "node-1", "schedulerName": "default-scheduler", "containers": [{"name": "main", "image": "registry.example/demo:1.0", "resources": {"requests": {"cpu": "500m", "memory": "1Gi"}}}]}, "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}], "qosClass": "Burstable"}},
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "demo-5d4c8b7f6-d3e4f", "namespace": "default", "uid": "uid-pod-demo-d3e4f", "creationTimestamp": "2026-03-01T08:20:00Z", "labels": {"app": "demo"}, "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "demo-5d4c8b7f6", "uid": "uid-rs-demo", "controller": true}]}, "spec": {"nodeName": "node-1", "schedulerName": "default-scheduler", "containers": [{"name": "main", "image": "registry.example/demo:1.0", "resources": {"requests": {"cpu": "500m", "memory": "1Gi"}}}]}, "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}], "qosClass": "Burstable"}},
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "other-6f7b9c8d5-g5h6j", "namespace": "default", "uid": "uid-pod-other-g5h6j", "creationTimestamp": "2026-03-01T08:30:00Z", "labels": {"app": "other"}, "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "other-6f7b9c8d5", "uid": "uid-rs-other", "controller": true}]}, "spec": {"nodeName": "node-2", "schedulerName": "default-scheduler", "containers": [{"name": "main", "image": "registry.example/other:1.0", "resources": {"requests": {"cpu": "500m", "memory": "1Gi"}}}]}, "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}], "qosClass": "Burstable"}}
]}
EOF

render README.md <<'EOF'
# @CLASS@

A kdesched balance plugin, scaffolded by `tools/new-plugin.sh`. As generated it evicts the pods
matching `labelSelector` (in `namespaces`), at most `maxPerNode` per node and cycle, oldest
first. TODO: say what yours does, and why.

## Build and test against the installed SDK

```sh
cmake -S . -B build -DCMAKE_PREFIX_PATH=/opt/kdesched   # where kdesched (or its sdk component) is installed
cmake --build build
(cd build && ctest --output-on-failure)                 # @SNAKE@_test: the plugin on the SDK's fake host
```

## Run it

```sh
kdesched plugins  --plugin-dir build
kdesched validate --plugin-dir build --config profile.yaml
kdesched simulate --plugin-dir build --config profile.yaml --cluster cluster.json --explain
```

`cluster.json` is a two-node snapshot on which the profile evicts one pod,
`default/demo-5d4c8b7f6-a1b2c`. Dump your own with `kdesched snapshot`.

## Args

| arg | default | meaning |
|---|---|---|
| `labelSelector` | required | the pods to evict (a Kubernetes LabelSelector, non-empty) |
| `namespaces` | every namespace | `include` or `exclude`, a list of namespace names |
| `maxPerNode` | `1` | at most this many evictions per node and cycle (≥ 1) |

The plugin targets plugin API 1.0 (`kdesched_target_api` in `CMakeLists.txt`), so every
kdesched 1.x host loads it. How hooks, args, evictions, reports and versions work:
`docs/plugin-guide.md` in kdesched.
EOF

chmod "$(umask -S)" "$tmp"  # mktemp made it private; the folder gets the usual permissions
if [ -d "$dir" ]; then rmdir "$dir"; fi
mv "$tmp" "$dir"
trap - EXIT
echo "created $dir: plugin $class ($snake.so), $snake.hpp, $snake.cpp, ${snake}_test.cpp, profile.yaml, cluster.json, README.md"
