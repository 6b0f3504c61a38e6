// `kdesched snapshot`: what kdesched reads from the API server, written in the snapshot format
// `kdesched simulate --cluster` accepts — one compact List of the kinds kdesched keeps, one object
// per line, each with its apiVersion and kind (a LIST's items have neither) and without
// managedFields or the last-applied annotation (about half of a pod's bytes, never read).
#pragma once

#include "cluster/kind_table.hpp"
#include "kube/watch/change_queue.hpp"

#include <array>
#include <cstddef>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace kd::core::kube {

class SnapshotWriter {
public:
    explicit SnapshotWriter(std::ostream& out);
    // Takes changes from ClusterSync::list_once; a kind's objects are kept until its LIST is
    // complete (a LIST that broke off and started again must not write objects twice).
    void consume(std::vector<Change>& changes);
    // Writes the List; returns the objects written per kind.
    std::map<std::string, size_t> finish();

private:
    std::ostream& out_;
    // Per ObjectKind: objects as written. Sized by the kind table, so a new kind cannot index past it.
    std::array<std::vector<std::string>, kAllObjectKinds.size()> pending_, done_;
};

}  // namespace kd::core::kube
