#include "simulator/simulation_report.hpp"

namespace kd::core {

bool evicted(const EvictionReport& e) {
    return e.result == "accepted" || e.result == "dry-run";
}

SimulationSummary summarize(const SimulationReport& report) {
    SimulationSummary sum;
    for (const auto& c : report.cycles) {
        sum.requests += c.evictions.size();
        for (const auto& e : c.evictions) sum.evicted += evicted(e);
        for (const auto& m : c.moves) {
            if (!m.to.empty())
                ++sum.moved;
            else if (!m.replacement.empty())
                ++sum.unplaced;
        }
    }
    for (const auto& m : report.pods_evicted)
        if (m.result == "success") sum.pods_evicted += m.value;
    return sum;
}

}  // namespace kd::core
