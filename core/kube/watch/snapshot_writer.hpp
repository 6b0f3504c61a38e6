// `kdesched snapshot`: what kdesched reads from the API server, written in the snapshot format
// `kdesched simulate --cluster` accepts — one compact List of the kinds kdesched keeps, one object
// per line, each with its apiVersion and kind (a LIST's items have neither) and without
// managedFields or the last-applied annotation (about half of a pod's bytes, never read). Then
// metrics-server's NodeMetrics and PodMetrics when the server serves them (add_listed).
#pragma once

#include "cluster/kind_table.hpp"
#include "kube/watch/change_queue.hpp"

#include <rapidjson/document.h>

#include <array>
#include <cstddef>
#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kd::core::kube {

class SnapshotWriter {
public:
    explicit SnapshotWriter(std::ostream& out);
    // Takes changes from ClusterSync::list_once; a kind's objects are kept until its LIST is
    // complete (a LIST that broke off and started again must not write objects twice).
    void consume(std::vector<Change>& changes);
    // Objects of a kind outside the kind table, listed once (metrics.k8s.io's NodeMetrics and
    // PodMetrics): the items of a List the API server answered, written after the table's kinds.
    void add_listed(std::string_view api_version, std::string_view kind, rapidjson::Value& items);
    // Writes the List; returns the objects written per kind.
    std::map<std::string, size_t> finish();

private:
    std::ostream& out_;
    // Per ObjectKind: objects as written. Sized by the kind table, so a new kind cannot index past it.
    std::array<std::vector<std::string>, kAllObjectKinds.size()> pending_, done_;
    // Kinds outside the table, in the order added: kind, objects as written.
    std::vector<std::pair<std::string, std::vector<std::string>>> listed_;
};

}  // namespace kd::core::kube
