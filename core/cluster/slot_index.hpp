// Records in numbered slots (SlotStore) and a compact hash index from a key to a slot number
// (SlotIndex, 4 bytes per entry, open addressing): the key itself stays in the record the slot
// names, so a 300,000-pod index costs ~2.4 MB instead of the ~30 MB of a node-based map.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <vector>

namespace kd::core {

// A growable array whose elements never move (pointers to them stay valid), in chunks of a few
// hundred elements: std::deque's 512-byte blocks would cost an allocation per 3 or 4 records.
template <class T>
class SlotStore {
    static constexpr uint32_t kChunk = 256;

public:
    template <class Store, class Ref>
    class Iterator {
    public:
        Iterator(Store* store, uint32_t i) : store_(store), i_(i) {}
        Ref operator*() const { return (*store_)[i_]; }
        Iterator& operator++() {
            ++i_;
            return *this;
        }
        bool operator==(const Iterator& o) const { return i_ == o.i_; }

    private:
        Store* store_;
        uint32_t i_;
    };

    T& operator[](uint32_t i) { return chunks_[i / kChunk][i % kChunk]; }
    const T& operator[](uint32_t i) const { return chunks_[i / kChunk][i % kChunk]; }
    uint32_t size() const { return size_; }
    // Appends a value-initialized element.
    T& emplace_back() {
        if (size_ % kChunk == 0) chunks_.push_back(std::make_unique<T[]>(kChunk));
        return (*this)[size_++];
    }
    Iterator<SlotStore, T&> begin() { return {this, 0}; }
    Iterator<SlotStore, T&> end() { return {this, size_}; }
    Iterator<const SlotStore, const T&> begin() const { return {this, 0}; }
    Iterator<const SlotStore, const T&> end() const { return {this, size_}; }

private:
    std::vector<std::unique_ptr<T[]>> chunks_;
    uint32_t size_ = 0;
};

class SlotIndex {
public:
    static constexpr uint32_t kNone = UINT32_MAX;
    // An entry holds a slot number in its low 24 bits and 8 bits of the key's hash above them:
    // a probe passes over other keys without reading their records (a cache miss each on a big
    // model). 16.7 million slots is over a hundred times Kubernetes' largest supported cluster.
    static constexpr uint32_t kMaxSlot = (1u << 24) - 3;

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
        uint32_t tag = tag_of(hash);
        for (size_t i = hash & mask;; i = (i + 1) & mask) {
            uint32_t e = table_[i];
            if (e == kEmpty) return kNone;
            if (e != kTomb && (e & ~kSlotMask) == tag && matches(e & kSlotMask)) return e & kSlotMask;
        }
    }

    // For lookups made in batches: start loading the entry a lookup of `hash` begins at, and name
    // the first slot whose hash bits match (its record can then be prefetched); find() decides.
    void prefetch(size_t hash) const {
        if (!table_.empty()) __builtin_prefetch(&table_[hash & (table_.size() - 1)]);
    }
    uint32_t candidate(size_t hash) const {
        return find(hash, [](uint32_t) { return true; });
    }

    // Adds a slot whose key is not yet present.
    void insert(size_t hash, uint32_t slot) {
        if (slot > kMaxSlot) throw std::length_error("more than 16,777,213 objects of one kind");
        if ((used_ + tombs_ + 1) * 4 >= table_.size() * 3) grow(slot);
        size_t mask = table_.size() - 1;
        size_t i = hash & mask;
        while (table_[i] != kEmpty && table_[i] != kTomb) i = (i + 1) & mask;
        if (table_[i] == kTomb) --tombs_;
        table_[i] = tag_of(hash) | slot;
        ++used_;
    }

    // Removes `slot` (stored under `hash`); no-op when absent.
    void erase(size_t hash, uint32_t slot) {
        if (table_.empty()) return;
        size_t mask = table_.size() - 1;
        uint32_t entry = tag_of(hash) | slot;
        for (size_t i = hash & mask;; i = (i + 1) & mask) {
            if (table_[i] == kEmpty) return;
            if (table_[i] == entry) {
                table_[i] = kTomb;
                --used_;
                ++tombs_;
                return;
            }
        }
    }

    size_t size() const { return used_; }

private:
    static constexpr uint32_t kSlotMask = (1u << 24) - 1;
    // Their slot parts are above kMaxSlot, so no entry is mistaken for them.
    static constexpr uint32_t kEmpty = UINT32_MAX;
    static constexpr uint32_t kTomb = UINT32_MAX - 1;

    // The top bits: the table is indexed by the low ones.
    static uint32_t tag_of(size_t hash) { return static_cast<uint32_t>(static_cast<uint64_t>(hash) >> 56) << 24; }

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
        table_[i] = tag_of(hash) | slot;
        ++used_;
    }

    std::vector<uint32_t> table_;
    size_t used_ = 0, tombs_ = 0;
    std::function<size_t(uint32_t)> hash_of_;
    std::function<uint32_t()> slot_count_;
    std::function<bool(uint32_t)> live_;
};

}  // namespace kd::core
