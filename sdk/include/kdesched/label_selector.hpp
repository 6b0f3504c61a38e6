// Kubernetes metav1.LabelSelector: decoding, validation and matching.
#pragma once

#include <kdesched/decode.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kd {

// One matchExpressions entry.
struct LabelSelectorRequirement {
    std::string key;
    std::string operator_;  // In | NotIn | Exists | DoesNotExist
    std::vector<std::string> values;
    template <class V>
    void fields(V& v) {
        v("key", key);
        v("operator", operator_);
        v("values", values);
    }
};

// Valid label key: optional DNS-subdomain prefix + "/" + name of ≤63 [A-Za-z0-9-_.] starting and
// ending alphanumeric. Returns an explanation, or "" when valid.
inline std::string label_key_problem(std::string_view key) {
    auto name_ok = [](std::string_view n) {
        if (n.empty() || n.size() > 63) return false;
        auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); };
        if (!alnum(n.front()) || !alnum(n.back())) return false;
        return std::all_of(n.begin(), n.end(), [&](char c) { return alnum(c) || c == '-' || c == '_' || c == '.'; });
    };
    std::string_view name = key;
    auto slash = key.find('/');
    if (slash != std::string_view::npos) {
        std::string_view prefix = key.substr(0, slash);
        name = key.substr(slash + 1);
        bool prefix_ok =
            !prefix.empty() && prefix.size() <= 253 && std::all_of(prefix.begin(), prefix.end(), [](char c) {
                return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.';
            });
        if (!prefix_ok) return "prefix \"" + std::string(prefix) + "\" must be a lowercase DNS subdomain";
    }
    if (!name_ok(name))
        return "name \"" + std::string(name) +
               "\" must be 1-63 characters of [A-Za-z0-9-_.], starting and ending with a letter or digit";
    return "";
}

// Valid label value: empty, or ≤63 [A-Za-z0-9-_.] starting and ending alphanumeric.
inline bool label_value_valid(std::string_view v) {
    return v.empty() || label_key_problem(v).empty();
}

struct LabelSelector {
    std::map<std::string, std::string> matchLabels;
    std::vector<LabelSelectorRequirement> matchExpressions;

    template <class V>
    void fields(V& v) {
        v("matchLabels", matchLabels);
        v("matchExpressions", matchExpressions);
    }

    bool empty() const { return matchLabels.empty() && matchExpressions.empty(); }

    void validate(Errors& errs, const std::string& path) const {
        for (const auto& [k, val] : matchLabels) {
            auto kp = label_key_problem(k);
            if (!kp.empty()) errs.add(field_path(field_path(path, "matchLabels"), k), "invalid label key: " + kp);
            if (!label_value_valid(val))
                errs.add(field_path(field_path(path, "matchLabels"), k), "invalid label value \"" + val + "\"");
        }
        for (size_t i = 0; i < matchExpressions.size(); ++i) {
            const auto& r = matchExpressions[i];
            std::string p = index_path(field_path(path, "matchExpressions"), i);
            auto kp = label_key_problem(r.key);
            if (!kp.empty()) errs.add(field_path(p, "key"), "invalid label key: " + kp);
            if (r.operator_ == "In" || r.operator_ == "NotIn") {
                if (r.values.empty())
                    errs.add(field_path(p, "values"), "must be non-empty when operator is " + r.operator_);
            } else if (r.operator_ == "Exists" || r.operator_ == "DoesNotExist") {
                if (!r.values.empty())
                    errs.add(field_path(p, "values"), "must be empty when operator is " + r.operator_);
            } else {
                errs.add(field_path(p, "operator"),
                         "unknown operator \"" + r.operator_ + "\" (use In, NotIn, Exists or DoesNotExist)");
            }
            for (size_t j = 0; j < r.values.size(); ++j)
                if (!label_value_valid(r.values[j]))
                    errs.add(index_path(field_path(p, "values"), j), "invalid label value \"" + r.values[j] + "\"");
        }
    }

    // `get(key)` returns the label's value as an optional string or string view.
    // An empty selector matches everything (metav1.LabelSelectorAsSelector).
    template <class Lookup>
    bool matches(Lookup&& get) const {
        for (const auto& [k, val] : matchLabels) {
            // Kept as the getter returns it: converting an optional string to a view would
            // point into a temporary.
            auto got = get(k);
            if (!got || *got != val) return false;
        }
        for (const auto& r : matchExpressions) {
            auto got = get(r.key);
            bool in = got && std::find(r.values.begin(), r.values.end(), *got) != r.values.end();
            if (r.operator_ == "In" && !in) return false;
            if (r.operator_ == "NotIn" && in) return false;
            if (r.operator_ == "Exists" && !got) return false;
            if (r.operator_ == "DoesNotExist" && got) return false;
        }
        return true;
    }

    // Matches a plain map of labels.
    bool matches_map(const std::map<std::string, std::string>& labels) const {
        return matches([&](const std::string& k) -> std::optional<std::string_view> {
            auto it = labels.find(k);
            if (it == labels.end()) return std::nullopt;
            return std::string_view(it->second);
        });
    }
};

}  // namespace kd
