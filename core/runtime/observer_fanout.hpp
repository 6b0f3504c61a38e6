// One RunObserver that tells several: the daemon's metrics and its live explain table both watch
// the same run.
#pragma once

#include "runtime/run_observer.hpp"

#include <initializer_list>
#include <vector>

namespace kd::core {

class ObserverFanout : public RunObserver {
public:
    ObserverFanout(std::initializer_list<RunObserver*> observers) : observers_(observers) {}

    void on_eviction(const EvictionRecord& r) override {
        for (RunObserver* o : observers_) o->on_eviction(r);
    }
    void on_filter_rejection(std::string_view profile, std::string_view requested_by, const kd_pod& pod,
                             std::string_view filter, std::string_view reason) override {
        for (RunObserver* o : observers_) o->on_filter_rejection(profile, requested_by, pod, filter, reason);
    }
    void on_report(std::string_view profile, std::string_view plugin, std::string_view kind, std::string_view subject,
                   std::string_view key, std::string_view value) override {
        for (RunObserver* o : observers_) o->on_report(profile, plugin, kind, subject, key, value);
    }
    // Logged once, by the first observer (the others would print the same line again).
    void on_plugin_log(std::string_view profile, std::string_view plugin, int32_t level,
                       std::string_view message) override {
        if (!observers_.empty()) observers_.front()->on_plugin_log(profile, plugin, level, message);
    }
    void on_pods_evicted(std::string_view profile, const kd_pod& pod, std::string_view result,
                         std::string_view strategy, bool dry_run) override {
        for (RunObserver* o : observers_) o->on_pods_evicted(profile, pod, result, strategy, dry_run);
    }
    void on_pod_picker_request(std::string_view profile, std::string_view plugin, std::string_view result) override {
        for (RunObserver* o : observers_) o->on_pod_picker_request(profile, plugin, result);
    }
    void on_plugin_call(std::string_view profile, std::string_view plugin, std::string_view point,
                        double seconds) override {
        for (RunObserver* o : observers_) o->on_plugin_call(profile, plugin, point, seconds);
    }

private:
    std::vector<RunObserver*> observers_;
};

}  // namespace kd::core
