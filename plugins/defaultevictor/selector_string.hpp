// Kubernetes label selectors in their string form ("zone=a,tier!=db,env in (p,q),!gpu,cores>4"),
// as accepted by labels.Parse. DefaultEvictorArgs.nodeSelector uses this form.
#pragma once

#include <kdesched/view.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kd::plugins::defaultevictor {

// One parsed requirement of a string selector.
struct StringRequirement {
    enum class Op { equals, not_equals, in, not_in, exists, does_not_exist, greater_than, less_than };
    std::string key;
    Op op = Op::exists;
    std::vector<std::string> values;
    int64_t number = 0;  // the operand of greater_than / less_than
};

// A parsed string selector: requirements AND-ed; no requirement = matches everything.
class StringLabelSelector {
public:
    // Parses `text`; on failure returns nullopt and sets `*error` to a one-line explanation.
    static std::optional<StringLabelSelector> parse(std::string_view text, std::string* error);

    // True when there are no requirements (matches every node).
    bool empty() const { return requirements_.empty(); }
    // True when every requirement holds for `labels`.
    bool matches(const kd::KeyValues& labels) const;
    // The parsed requirements, in text order.
    const std::vector<StringRequirement>& requirements() const { return requirements_; }

private:
    std::vector<StringRequirement> requirements_;
};

}  // namespace kd::plugins::defaultevictor
