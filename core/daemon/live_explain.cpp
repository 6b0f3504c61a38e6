#include "daemon/live_explain.hpp"

#include <cctype>

namespace kd::core::daemon {

namespace {

// One query parameter's value, %XX decoded ("" when absent).
std::string query_value(std::string_view query, std::string_view name) {
    while (!query.empty()) {
        size_t amp = query.find('&');
        std::string_view part = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
        size_t eq = part.find('=');
        if (part.substr(0, eq) != name || eq == std::string_view::npos) continue;
        std::string out;
        std::string_view v = part.substr(eq + 1);
        for (size_t i = 0; i < v.size(); ++i) {
            if (v[i] == '%' && i + 2 < v.size() && std::isxdigit(static_cast<unsigned char>(v[i + 1])) &&
                std::isxdigit(static_cast<unsigned char>(v[i + 2]))) {
                out += char(std::stoi(std::string(v.substr(i + 1, 2)), nullptr, 16));
                i += 2;
            } else {
                out += v[i] == '+' ? ' ' : v[i];
            }
        }
        return out;
    }
    return "";
}

}  // namespace

void LiveExplain::begin_cycle(uint64_t cycle, int64_t now_ms) {
    table_.clear();
    cycle_ = cycle;
    time_ms_ = now_ms;
}

void LiveExplain::publish() {
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
    std::string pod = query_value(query, "pod");
    auto cycle = explain.published();
    if (query_value(query, "format") == "text") {
        std::string text = cycle->cycle
                               ? explain_text(*cycle, pod)
                               : "no cycle has run on this replica yet (starting, or standby: ask the leader)\n";
        return {"text/plain; charset=utf-8", text};
    }
    return {"application/json", explain_json(*cycle, pod)};
}

}  // namespace kd::core::daemon
