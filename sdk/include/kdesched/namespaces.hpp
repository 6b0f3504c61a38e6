// The namespaces a plugin acts in, as every upstream plugin's args have them
// (kubernetes-sigs/descheduler pkg/api/types.go Namespaces, v0.35.1): either a list to include or
// a list to exclude. Put it in your args (`std::optional<kd::Namespaces> namespaces;` and
// `v("namespaces", namespaces);`): decoding runs its validate() at the field's path.
#pragma once

#include <kdesched/decode.hpp>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace kd {

// `namespaces` / `evictableNamespaces` of a plugin's args.
struct Namespaces {
    std::vector<std::string> include, exclude;

    template <class V>
    void fields(V& v) {
        v("include", include);
        v("exclude", exclude);
    }
    // Upstream's one rule and its words (pkg/framework/plugins/removeduplicates/validation.go,
    // v0.35.1; Koordinator's pkg/descheduler/apis/config/validation/validation_loadaware.go, v1.8.0,
    // says the same). Empty names are not refused: neither upstream nor Koordinator does, and a
    // profile they load must load here too.
    void validate(Errors& errs, const std::string& path) const {
        if (!include.empty() && !exclude.empty()) errs.add(path, "only one of Include/Exclude namespaces can be set");
    }
    // Whether `ns` is one to act in: listed in `include` when that is given, and not in `exclude`.
    // Both apply, as upstream's pod filter applies both (pkg/descheduler/pod/pods.go, v0.35.1), so
    // even args that skipped validation mean the same here as there.
    bool allows(std::string_view ns) const {
        auto listed = [ns](const std::vector<std::string>& list) {
            return std::find(list.begin(), list.end(), ns) != list.end();
        };
        return (include.empty() || listed(include)) && !listed(exclude);
    }
    // Neither list given: every namespace.
    bool empty() const { return include.empty() && exclude.empty(); }
};

}  // namespace kd
