// A label selector written as text ("tier=web,env in (prod,staging),!legacy"), the form
// kubernetes-sigs/descheduler's DeschedulerPolicy takes for its top-level nodeSelector and kubectl
// for -l: the grammar of k8s.io/apimachinery pkg/labels/selector.go (Parse), read into the
// structured kd::LabelSelector that the rest of kdesched matches with.
#pragma once

#include <kdesched/label_selector.hpp>

#include <string>
#include <string_view>

namespace kd::core {

struct ParsedSelector {
    kd::LabelSelector selector;  // empty (matches everything) for an empty text
    std::string problem;         // "" when the text is valid; else what is wrong and where
};

// `key=value`, `key==value` (In), `key!=value` (NotIn: a node without the key matches), `key in
// (a,b)`, `key notin (a,b)`, `key` (Exists), `!key` (DoesNotExist), comma-separated, all of them
// required. Keys and values are checked as Kubernetes label keys and values. `key>1` and `key<1`
// (numeric comparisons, which a structured selector cannot express) are refused.
ParsedSelector parse_label_selector_text(std::string_view text);

}  // namespace kd::core
