// Why pods that a plugin considered were not evicted, one line per pod: what `kdesched simulate
// --explain` prints for a cycle and what the daemon serves at /debug/explain for its last one.
// Fed by a RunObserver during a cycle (thousands of calls: a pod's key is built once per pod,
// plugin names and reasons are kept once each), read as rows when the cycle is reported.
#pragma once

#include "runtime/run_observer.hpp"

#include <kdesched/abi.h>

#include <cstdint>
#include <iosfwd>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kd::core {

// A candidate that was considered and not evicted, and what stopped it: `stage` says how far it
// got — "filtered" (the plugin asked cycle.filter() about it and a filter said no: considered
// only), "skipped" (the plugin's own reason, kd::Cycle::report_pod), "refused" (the plugin asked
// to evict it and the host refused: a filter, the PreEvictionFilter, a limit, the evict plugin).
struct ExplainEntry {
    std::string pod, stage, plugin, reason;
    bool operator==(const ExplainEntry&) const = default;
};

class ExplainTable {
public:
    void clear();
    // The pod's line says this now: the last word wins (a filter's rejection when the plugin asked,
    // then the plugin's own reason, or a refused eviction).
    void note(const kd_pod& pod, std::string_view stage, std::string_view plugin, std::string_view reason);
    // As note(), for a pod known by its key only (a plugin's report names it).
    void note(std::string_view pod_key, std::string_view stage, std::string_view plugin, std::string_view reason);
    // The pod was evicted in the end: it has no line (a later note gives it a new one, last).
    void evicted(const kd_pod& pod);
    // What a RunObserver is told, as lines: a refused eviction, a filter's rejection, a plugin's
    // report that it skipped a pod (report_keys::kPodSkipped); an accepted one removes the line.
    void record(const EvictionRecord& r);
    void record_rejection(const kd_pod& pod, std::string_view filter, std::string_view reason) {
        note(pod, "filtered", filter, reason);
    }
    void record_report(std::string_view plugin, std::string_view kind, std::string_view subject, std::string_view key,
                       std::string_view value);
    // The lines, in the order pods were first explained.
    std::vector<ExplainEntry> rows() const;
    bool empty() const { return live_ == 0; }
    // Changes with every change of the lines: whoever copies them can tell when to copy again.
    uint64_t revision() const { return revision_; }

private:
    struct Line {
        std::string pod;
        const std::string *stage, *plugin, *reason;
        bool gone = false;
    };
    const std::string* word(std::string_view s);
    // The line of this pod object, if it is still the pod it was noted as (an address may be reused
    // by another pod after the first one left the model).
    Line* line_of(const kd_pod& pod);
    void set(size_t at, std::string_view stage, std::string_view plugin, std::string_view reason);

    std::vector<Line> lines_;
    std::unordered_map<const kd_pod*, size_t> by_pod_;
    std::unordered_map<std::string, size_t> by_key_;  // lines noted by key only
    std::set<std::string, std::less<>> words_;
    size_t live_ = 0;
    uint64_t revision_ = 0;
};

// The lines as a table (pod, stage, plugin, reason), as `simulate --explain` prints them.
void print_explain(std::ostream& out, const std::vector<ExplainEntry>& rows, const std::string& indent);

// One cycle's lines, as /debug/explain and `kdesched explain` give them.
struct ExplainCycle {
    uint64_t cycle = 0;  // 0: no cycle has run
    int64_t time_ms = 0;
    std::vector<ExplainEntry> rows;
};
// {"cycle", "time", ["pod",] "explain": [{"pod", "stage", "plugin", "reason"}]}: all lines, or the
// one of `pod` ("namespace/name").
std::string explain_json(const ExplainCycle& c, std::string_view pod = {});
// A heading line and the table.
std::string explain_text(const ExplainCycle& c, std::string_view pod = {});

}  // namespace kd::core
