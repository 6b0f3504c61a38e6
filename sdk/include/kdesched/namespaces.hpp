// The namespaces a plugin acts in, as every upstream plugin's args have them
// (kubernetes-sigs/descheduler pkg/api/types.go Namespaces, v0.35.1): either a list to include or
// a list to exclude. Put it in your args (`std::optional<kd::Namespaces> namespaces;` and
// `v("namespaces", namespaces);`): decoding runs its validate().
#pragma once

#include <kdesched/decode.hpp>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace kd {

struct Namespaces {
    std::vector<std::string> include, exclude;

    template <class V>
    void fields(V& v) {
        v("include", include);
        v("exclude", exclude);
    }
    // Upstream's rule and words (e.g. pkg/framework/plugins/removeduplicates/validation.go).
    void validate(Errors& errs, const std::string& path) const {
        if (!include.empty() && !exclude.empty()) errs.add(path, "only one of Include/Exclude namespaces can be set");
        auto check = [&](const std::vector<std::string>& list, std::string_view name) {
            for (size_t i = 0; i < list.size(); ++i)
                if (list[i].empty())
                    errs.add(index_path(field_path(path, name), i), "empty namespace name (remove the entry)");
        };
        check(include, "include");
        check(exclude, "exclude");
    }
    // Whether `ns` is one to act in: listed in `include` when it is given, else not in `exclude`.
    bool allows(std::string_view ns) const {
        auto listed = [&](const std::vector<std::string>& list) {
            return std::find(list.begin(), list.end(), ns) != list.end();
        };
        if (!include.empty()) return listed(include);
        return !listed(exclude);
    }
    bool empty() const { return include.empty() && exclude.empty(); }
};

}  // namespace kd
