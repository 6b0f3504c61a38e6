#include "runtime/explain_table.hpp"

#include "cluster/rfc3339.hpp"
#include "runtime/report_keys.hpp"
#include "text/aligned_rows.hpp"
#include "text/json_writer.hpp"

#include <kdesched/plugin.hpp>
#include <kdesched/view.hpp>

#include <sstream>

namespace kd::core {

namespace {

bool same_pod(const kd::Pod& p, std::string_view key) {
    return key.size() == p.ns().size() + 1 + p.name().size() && key.substr(0, p.ns().size()) == p.ns() &&
           key[p.ns().size()] == '/' && key.substr(p.ns().size() + 1) == p.name();
}

}  // namespace

void ExplainTable::clear() {
    ++revision_;
    lines_.clear();
    by_pod_.clear();
    by_key_.clear();
    live_ = 0;
}

const std::string* ExplainTable::word(std::string_view s) {
    auto it = words_.find(s);
    if (it == words_.end()) it = words_.emplace(s).first;
    return &*it;
}

ExplainTable::Line* ExplainTable::line_of(const kd_pod& pod) {
    auto it = by_pod_.find(&pod);
    if (it == by_pod_.end()) return nullptr;
    Line& line = lines_[it->second];
    if (line.gone || !same_pod(kd::Pod(&pod), line.pod)) {
        by_pod_.erase(it);
        return nullptr;
    }
    return &line;
}

void ExplainTable::set(size_t at, std::string_view stage, std::string_view plugin, std::string_view reason) {
    ++revision_;
    Line& line = lines_[at];
    line.stage = word(stage);
    line.plugin = word(plugin);
    line.reason = word(reason);
}

void ExplainTable::note(const kd_pod& pod, std::string_view stage, std::string_view plugin, std::string_view reason) {
    if (Line* line = line_of(pod)) return set(size_t(line - lines_.data()), stage, plugin, reason);
    std::string key = kd::Pod(&pod).key();
    if (auto it = by_key_.find(key); it != by_key_.end() && !lines_[it->second].gone) {
        by_pod_[&pod] = it->second;
        return set(it->second, stage, plugin, reason);
    }
    by_pod_[&pod] = lines_.size();
    by_key_[key] = lines_.size();
    lines_.push_back({std::move(key), nullptr, nullptr, nullptr});
    ++live_;
    set(lines_.size() - 1, stage, plugin, reason);
}

void ExplainTable::note(std::string_view pod_key, std::string_view stage, std::string_view plugin,
                        std::string_view reason) {
    std::string key(pod_key);
    if (auto it = by_key_.find(key); it != by_key_.end() && !lines_[it->second].gone)
        return set(it->second, stage, plugin, reason);
    by_key_[key] = lines_.size();
    lines_.push_back({std::move(key), nullptr, nullptr, nullptr});
    ++live_;
    set(lines_.size() - 1, stage, plugin, reason);
}

void ExplainTable::evicted(const kd_pod& pod) {
    Line* line = line_of(pod);
    if (!line) {
        auto it = by_key_.find(kd::Pod(&pod).key());
        if (it == by_key_.end() || lines_[it->second].gone) return;
        line = &lines_[it->second];
    }
    line->gone = true;
    --live_;
    ++revision_;
    by_pod_.erase(&pod);
    by_key_.erase(line->pod);
}

void ExplainTable::record(const EvictionRecord& r) {
    if (r.code == KD_EVICT_ACCEPTED || r.code == KD_EVICT_DRY_RUN) return evicted(*r.pod);
    note(*r.pod, "refused", r.decided_by.empty() ? r.requested_by : r.decided_by,
         r.detail.empty() ? std::string_view(kd::evict_code_name(r.code)) : r.detail);
}

void ExplainTable::record_report(std::string_view plugin, std::string_view kind, std::string_view subject,
                                 std::string_view key, std::string_view value) {
    if (kind == "pod" && key == report_keys::kPodSkipped) note(subject, "skipped", plugin, value);
}

std::vector<ExplainEntry> ExplainTable::rows() const {
    std::vector<ExplainEntry> out;
    out.reserve(live_);
    for (const Line& l : lines_)
        if (!l.gone) out.push_back({l.pod, *l.stage, *l.plugin, *l.reason});
    return out;
}

void print_explain(std::ostream& out, const std::vector<ExplainEntry>& rows, const std::string& indent) {
    std::vector<std::vector<std::string>> cells;
    cells.reserve(rows.size());
    for (const auto& e : rows) cells.push_back({e.pod, e.stage, e.plugin, e.reason});
    print_rows(out, cells, indent);
}

namespace {

// The rows to show: all of them (not copied), or the one of `pod`, kept in `storage`.
const std::vector<ExplainEntry>& only(const std::vector<ExplainEntry>& rows, std::string_view pod,
                                      std::vector<ExplainEntry>& storage) {
    if (pod.empty()) return rows;
    for (const auto& r : rows)
        if (r.pod == pod) storage.push_back(r);
    return storage;
}

}  // namespace

std::string explain_json(const ExplainCycle& c, std::string_view pod) {
    json::TextWriter w;
    w.StartObject();
    json::field(w, "cycle", c.cycle);
    json::field(w, "time", c.cycle ? format_rfc3339(c.time_ms) : "");
    if (!pod.empty()) json::field(w, "pod", pod);
    std::vector<ExplainEntry> storage;
    json::object_array(w, "explain", only(c.rows, pod, storage), [&](const ExplainEntry& e) {
        json::field(w, "pod", e.pod);
        json::field(w, "stage", e.stage);
        json::field(w, "plugin", e.plugin);
        json::field(w, "reason", e.reason);
    });
    w.EndObject();
    return w.text() + "\n";
}

std::string explain_text(const ExplainCycle& c, std::string_view pod) {
    std::ostringstream out;
    if (!c.cycle) return "no cycle has run yet\n";
    std::vector<ExplainEntry> storage;
    const auto& rows = only(c.rows, pod, storage);
    out << "cycle " << c.cycle << " at " << format_rfc3339(c.time_ms) << ": " << rows.size()
        << " pod(s) considered and not evicted" << (pod.empty() ? "" : " named " + std::string(pod)) << "\n";
    print_explain(out, rows, "  ");
    return out.str();
}

}  // namespace kd::core
