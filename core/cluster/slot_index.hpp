// A compact hash index from a key to a slot number (4 bytes per entry, open addressing): the
// key itself stays in the record the slot names, so a 300,000-pod index costs ~2.4 MB instead of
// the ~30 MB of a node-based map.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace kd::core {

class SlotIndex {
public:
    static constexpr uint32_t kNone = UINT32_MAX;

    // `hash_of(slot)` recomputes a stored slot's hash when the table grows; `slot_count()` bounds
    // the slot numbers and `live(slot)` says which are in use, so growing walks the records in
    // memory order instead of the table's random order.
    SlotIndex(std::function<size_t(uint32_t)> hash_of, std::function<uint32_t()> slot_count,
              std::function<bool(uint32_t)> live)
        : hash_of_(std::move(hash_of)), slot_count_(std::move(slot_count)), live_(std::move(live)) {}

    // The slot whose key `matches`, or kNone.
    template <class Match>
    uint32_t find(size_t hash, Match&& matches) const {
        if (table_.empty()) return kNone;
        size_t mask = table_.size() - 1;
        for (size_t i = hash & mask;; i = (i + 1) & mask) {
            uint32_t s = table_[i];
            if (s == kEmpty) return kNone;
            if (s != kTomb && matches(s)) return s;
        }
    }

    // Adds a slot whose key is not yet present.
    void insert(size_t hash, uint32_t slot) {
        if ((used_ + tombs_ + 1) * 4 >= table_.size() * 3) grow(slot);
        size_t mask = table_.size() - 1;
        size_t i = hash & mask;
        while (table_[i] != kEmpty && table_[i] != kTomb) i = (i + 1) & mask;
        if (table_[i] == kTomb) --tombs_;
        table_[i] = slot;
        ++used_;
    }

    // Removes `slot` (stored under `hash`); no-op when absent.
    void erase(size_t hash, uint32_t slot) {
        if (table_.empty()) return;
        size_t mask = table_.size() - 1;
        for (size_t i = hash & mask;; i = (i + 1) & mask) {
            if (table_[i] == kEmpty) return;
            if (table_[i] == slot) {
                table_[i] = kTomb;
                --used_;
                ++tombs_;
                return;
            }
        }
    }

    size_t size() const { return used_; }
    size_t memory_bytes() const { return table_.capacity() * sizeof(uint32_t); }

private:
    static constexpr uint32_t kEmpty = UINT32_MAX;
    static constexpr uint32_t kTomb = UINT32_MAX - 1;

    // Rebuilds the table from the live slots (all indexed, except `inserting`, which may already
    // be live but is placed by the caller).
    void grow(uint32_t inserting) {
        size_t size = table_.empty() ? 64 : (used_ * 4 >= table_.size() ? table_.size() * 2 : table_.size());
        table_.assign(size, kEmpty);
        used_ = tombs_ = 0;
        for (uint32_t s = 0, n = slot_count_(); s < n; ++s)
            if (s != inserting && live_(s)) place(hash_of_(s), s);
    }
    void place(size_t hash, uint32_t slot) {
        size_t mask = table_.size() - 1;
        size_t i = hash & mask;
        while (table_[i] != kEmpty) i = (i + 1) & mask;
        table_[i] = slot;
        ++used_;
    }

    std::vector<uint32_t> table_;
    size_t used_ = 0, tombs_ = 0;
    std::function<size_t(uint32_t)> hash_of_;
    std::function<uint32_t()> slot_count_;
    std::function<bool(uint32_t)> live_;
};

}  // namespace kd::core
