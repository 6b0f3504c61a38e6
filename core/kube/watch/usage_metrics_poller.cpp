#include "kube/watch/usage_metrics_poller.hpp"

#include "cluster/decode/field_problem.hpp"
#include "cluster/decode/usage_metrics_reader.hpp"
#include "kube/watch/usage_metrics_list.hpp"

#include <spdlog/spdlog.h>

namespace kd::core::kube {

UsageMetricsPoller::UsageMetricsPoller(ApiClient& client, UsagePollerOptions options)
    : client_(client), options_(options) {}

UsageMetricsPoller::~UsageMetricsPoller() {
    stop();
}

void UsageMetricsPoller::start() {
    thread_ = std::thread([this] {
        for (;;) {
            poll_once();
            std::unique_lock lock(mutex_);
            if (wake_.wait_for(lock, options_.interval, [this] { return stopping_; })) return;
        }
    });
}

void UsageMetricsPoller::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

template <class Item, class Read>
std::optional<std::vector<Item>> UsageMetricsPoller::list(const char* resource, Read read) {
    UsageMetricsList listed = list_usage_metrics(client_, resource);
    if (!listed.listed()) {
        set_problem(listed.problem +
                    " LowNodeUtilization's metricsUtilization has no usage, and its runs fail, until it answers; "
                    "polling again every " +
                    std::to_string(options_.interval.count() / 1000) + " s");
        return std::nullopt;
    }
    std::vector<Item> out;
    for (const auto& item : listed.items().GetArray()) {
        try {
            out.push_back(read(item));
        } catch (const decode::FieldProblemError& e) {
            // One bad entry costs that node or pod its metrics, not the others'.
            spdlog::warn("LIST {} of {}: an item skipped: {}: {}", resource, kMetricsApiVersion, e.problem.path,
                         e.problem.message);
        }
    }
    return out;
}

bool UsageMetricsPoller::poll_once() {
    auto nodes = list<NodeUsage>("nodes", decode::read_node_usage);
    auto pods = nodes ? list<PodUsage>("pods", decode::read_pod_usage) : std::nullopt;
    std::lock_guard lock(mutex_);
    if (nodes) smoothing_.take_nodes(*nodes);
    // Pod usage is read fresh each round: without an answer there is none (not a stale one).
    smoothing_.take_pods(pods ? std::move(*pods) : std::vector<PodUsage>{});
    ++rounds_;
    wake_.notify_all();
    if (nodes && pods && !problem_.empty()) {
        spdlog::info("metrics.k8s.io answers again: usage of {} nodes and {} pods", smoothing_.current().nodes.size(),
                     smoothing_.current().pods.size());
        problem_.clear();
    }
    return nodes && pods;
}

void UsageMetricsPoller::set_problem(std::string problem) {
    std::lock_guard lock(mutex_);
    if (problem == problem_) return;  // said once per condition
    spdlog::warn("{}", problem);
    problem_ = std::move(problem);
}

void UsageMetricsPoller::wait_first_round(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    wake_.wait_for(lock, timeout, [this] { return rounds_ > 0 || stopping_; });
}

std::optional<UsageMetrics> UsageMetricsPoller::take_if_newer(uint64_t* seen) const {
    std::lock_guard lock(mutex_);
    if (rounds_ == *seen) return std::nullopt;
    *seen = rounds_;
    return smoothing_.current();
}

std::string UsageMetricsPoller::problem() const {
    std::lock_guard lock(mutex_);
    return problem_;
}

}  // namespace kd::core::kube
