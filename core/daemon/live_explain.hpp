// /debug/explain: why the pods the last cycle considered stayed, as `kdesched simulate --explain`
// says it for a simulated cycle (the same ExplainTable fills both). The control thread fills the
// table during a cycle and its ticks and publishes it after each; the health server's worker
// reads the published copy, so a request never waits for a hook.
#pragma once

#include "daemon/health_server.hpp"
#include "runtime/explain_table.hpp"
#include "runtime/run_observer.hpp"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace kd::core::daemon {

class LiveExplain : public RunObserver {
public:
    // Control thread.
    void begin_cycle(uint64_t cycle, int64_t now_ms);
    void publish();

    void on_eviction(const EvictionRecord& r) override { table_.record(r); }
    void on_filter_rejection(std::string_view, std::string_view, const kd_pod& pod, std::string_view filter,
                             std::string_view reason) override {
        table_.record_rejection(pod, filter, reason);
    }
    void on_report(std::string_view, std::string_view plugin, std::string_view kind, std::string_view subject,
                   std::string_view key, std::string_view value) override {
        table_.record_report(plugin, kind, subject, key, value);
    }

    // Any thread: the last published cycle (cycle 0: none has run here — starting, or standby).
    std::shared_ptr<const ExplainCycle> published() const;

private:
    ExplainTable table_;
    uint64_t published_revision_ = ~uint64_t(0);  // the table's revision published last
    uint64_t cycle_ = 0;
    int64_t time_ms_ = 0;
    mutable std::mutex mutex_;
    std::shared_ptr<const ExplainCycle> published_ = std::make_shared<ExplainCycle>();
};

// Answers GET /debug/explain?pod=ns/name&format=text|json.
DebugAnswer answer_explain(const LiveExplain& explain, std::string_view query);

}  // namespace kd::core::daemon
