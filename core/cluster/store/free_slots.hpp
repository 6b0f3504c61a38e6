// The slot numbers a store's deleted objects left free, reused before the store grows: slot
// numbers stay small and dense, which keeps the stores' hash indexes and scans compact.
#pragma once

#include <cstdint>
#include <vector>

namespace kd::core {

class FreeSlots {
public:
    // A free slot of `slots` (a SlotStore or a deque), appending a new one when none is free.
    template <class Slots>
    uint32_t take(Slots& slots) {
        if (free_.empty()) {
            slots.emplace_back();
            return static_cast<uint32_t>(slots.size() - 1);
        }
        uint32_t slot = free_.back();
        free_.pop_back();
        return slot;
    }
    void give_back(uint32_t slot) { free_.push_back(slot); }

private:
    std::vector<uint32_t> free_;
};

}  // namespace kd::core
