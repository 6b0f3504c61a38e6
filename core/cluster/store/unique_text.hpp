// Text that is not worth interning because no two objects share it: pod UIDs and names, and the
// pod names a NodeMetric lists before their pods arrive. Deleted objects leave garbage behind, so
// the live strings are rewritten into a fresh arena once garbage dominates; the stores holding
// them (pods, NodeMetrics) each move theirs (move_to) and the model swaps the arena in (replace).
#pragma once

#include "cluster/string_pool.hpp"

#include <kdesched/abi.h>

#include <cstddef>
#include <string_view>
#include <utility>

namespace kd::core {

class UniqueText {
public:
    kd_str copy(std::string_view s) {
        auto v = arena_.copy(s);
        return kd_str{v.data(), v.size()};
    }
    // `bytes` of it belong to no live object any more.
    void retire(size_t bytes) { dead_bytes_ += bytes; }
    bool mostly_garbage() const { return dead_bytes_ > (1u << 20) && dead_bytes_ * 2 > arena_.bytes(); }
    // `fresh` holds every live string now (each store moved its own into it).
    void replace(TextArena fresh) {
        arena_ = std::move(fresh);
        dead_bytes_ = 0;
    }

private:
    TextArena arena_;
    size_t dead_bytes_ = 0;
};

// Copies `s` into `fresh` and points `s` at the copy (a compaction's step).
inline void move_to(TextArena& fresh, kd_str& s) {
    auto v = fresh.copy(view(s));
    s = kd_str{v.data(), v.size()};
}

}  // namespace kd::core
