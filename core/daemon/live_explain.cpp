#include "daemon/live_explain.hpp"

#include "net/query_string.hpp"

namespace kd::core::daemon {

void LiveExplain::begin_cycle(uint64_t cycle, int64_t now_ms) {
    table_.clear();
    cycle_ = cycle;
    time_ms_ = now_ms;
}

void LiveExplain::publish() {
    // Ticks follow each other quickly and mostly change nothing: copy only a changed table.
    if (table_.revision() == published_revision_) return;
    published_revision_ = table_.revision();
    auto p = std::make_shared<ExplainCycle>();
    p->cycle = cycle_;
    p->time_ms = time_ms_;
    p->rows = table_.rows();
    std::lock_guard lock(mutex_);
    published_ = std::move(p);
}

std::shared_ptr<const ExplainCycle> LiveExplain::published() const {
    std::lock_guard lock(mutex_);
    return published_;
}

DebugAnswer answer_explain(const LiveExplain& explain, std::string_view query) {
    std::string pod = net::query_value(query, "pod");
    auto cycle = explain.published();
    if (net::query_value(query, "format") == "text") {
        std::string text = cycle->cycle
                               ? explain_text(*cycle, pod)
                               : "no cycle has run on this replica yet (starting, or standby: ask the leader)\n";
        return {"text/plain; charset=utf-8", text};
    }
    return {"application/json", explain_json(*cycle, pod)};
}

}  // namespace kd::core::daemon
