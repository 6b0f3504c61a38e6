#include "picker_ranking.hpp"

#include <algorithm>
#include <numeric>

namespace kd::plugins::lownodeload {

void PickerFallbackLog::failed(const kd::Cycle& cycle, std::string_view node, const std::string& reason) {
    if (reason == last_reason_) return;
    last_reason_ = reason;
    cycle.warn("Pod picker failed, evicting in the built-in order node=\"" + std::string(node) + "\" reason=\"" +
               reason + "\" (repeats of this reason are counted, not logged)");
}

void PickerFallbackLog::answered(const kd::Cycle& cycle) {
    if (last_reason_.empty()) return;
    last_reason_.clear();
    cycle.info("Pod picker answers again");
}

bool rank_by_picker(const kd::Cycle& cycle, const kd::PodPickerArgs& picker, std::string_view node,
                    const PoolState& state, std::vector<PodOrderKey>& keys, size_t needed, PickerFallbackLog& log) {
    std::vector<const kd_pod*> candidates;
    candidates.reserve(keys.size());
    for (const PodOrderKey& k : keys) candidates.push_back(state.pods[k.pod].pod);
    kd::PickResult result = cycle.pick_pods(picker, candidates, static_cast<uint32_t>(needed));
    if (!result.ok()) {
        log.failed(cycle, node, result.error);
        return false;
    }
    log.answered(cycle);
    cycle.debug("Pod picker ranked the candidates node=\"" + std::string(node) +
                "\" candidates=" + std::to_string(keys.size()) + " needed=" + std::to_string(needed));
    std::vector<size_t> order(keys.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return result.ranks[a] < result.ranks[b]; });
    std::vector<PodOrderKey> ranked;
    ranked.reserve(keys.size());
    for (size_t i : order) ranked.push_back(keys[i]);
    keys = std::move(ranked);
    return true;
}

}  // namespace kd::plugins::lownodeload
