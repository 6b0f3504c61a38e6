// RemoveDuplicates (kubernetes-sigs/descheduler pkg/framework/plugins/removeduplicates@v0.35.1):
// a balance plugin. Pods of the same owners running the same images are duplicates; where a node
// holds more of them than an even spread over the nodes they could run on allows, the surplus is
// evicted.
#pragma once

#include "common.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kd::plugins::sigs {

// No defaults upstream; `namespaces` validates itself where it is decoded. v0.35.1 has no
// labelSelector here.
struct RemoveDuplicatesArgs {
    std::optional<Namespaces> namespaces;
    std::vector<std::string> excludeOwnerKinds;

    template <class V>
    void fields(V& v) {
        v("namespaces", namespaces);
        v("excludeOwnerKinds", excludeOwnerKinds);
    }
};

class RemoveDuplicates {
public:
    static constexpr const char* kName = "RemoveDuplicates";
    static constexpr const char* kVersion = "0.35.1";
    static constexpr const char* kDescription =
        "evicts pods of the same owners and images beyond an even spread over the nodes they fit";
    using Args = RemoveDuplicatesArgs;

    RemoveDuplicates(Host&, Args args) : args_(std::move(args)) {}
    void balance(Cycle& cycle);

private:
    // Whether a pod of this spec may count as a duplicate at all (the pod must also not be
    // Succeeded or Failed): in `namespaces`, with an ownerReference and none of an excluded kind,
    // running at least one container. All of it is read from the spec.
    bool template_candidate(const Pod& pod) const;
    Args args_;
};

}  // namespace kd::plugins::sigs
