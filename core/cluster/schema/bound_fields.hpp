// What is done with the bound rows' values (cluster/schema/object_schema.hpp), once for all of
// them: copied from a draft's kd_pod / kd_pod_spec into the model's (strings through an intern
// function, lists' arrays through a keep function), and added to a content key (the spec cache's,
// the model digest's).
#pragma once

#include "cluster/content_key.hpp"
#include "cluster/schema/object_schema.hpp"
#include "cluster/string_pool.hpp"

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

namespace kd::core::schema {

namespace placed_detail {

template <class T>
T load(const std::byte* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
template <class T>
void store(std::byte* p, const T& v) {
    std::memcpy(p, &v, sizeof v);
}

// Copies the array `items` (`count` elements of `size` bytes each, built by fill(dst, i) into
// zero-filled memory) through keep(data, bytes); null when empty.
template <class Keep, class Fill>
const void* copy_array(size_t count, size_t size, Keep& keep, Fill&& fill) {
    if (count == 0) return nullptr;
    std::vector<uint64_t> out(count * size / 8);
    auto* bytes = reinterpret_cast<std::byte*>(out.data());
    for (size_t i = 0; i < count; ++i) fill(bytes + i * size, i);
    return keep(static_cast<const void*>(out.data()), out.size() * 8);
}

// Copies the member `p` places from the struct at `src` to the one at `dst` (which may be the same).
template <class Intern, class Keep>
void copy_placed(std::byte* dst, const std::byte* src, const Place& p, Intern& intern, Keep& keep) {
    switch (p.type) {
        case Field::none:
            return;
        case Field::str:
            return store(dst + p.at, intern(view(load<kd_str>(src + p.at))));
        case Field::int32:
        case Field::boolean:
        case Field::time:
            std::memmove(dst + p.at, src + p.at,
                         p.type == Field::int32     ? 4
                         : p.type == Field::boolean ? 1
                                                    : sizeof(int64_t));
            return;
        case Field::strs: {
            const auto l = load<kd_str_list>(src + p.at);
            const void* items = copy_array(l.count, sizeof(kd_str), keep,
                                           [&](std::byte* e, size_t i) { store(e, intern(view(l.items[i]))); });
            return store(dst + p.at, kd_str_list{static_cast<const kd_str*>(items), l.count});
        }
        case Field::kvs: {
            const auto l = load<kd_key_value_list>(src + p.at);
            const void* items = copy_array(l.count, sizeof(kd_key_value), keep, [&](std::byte* e, size_t i) {
                store(e, kd_key_value{intern(view(l.items[i].key)), intern(view(l.items[i].value))});
            });
            return store(dst + p.at, kd_key_value_list{static_cast<const kd_key_value*>(items), l.count});
        }
        case Field::list: {
            const auto* items = load<const std::byte*>(src + p.at);
            const auto count = load<size_t>(src + p.count);
            const uint32_t stride = count ? load<uint32_t>(items) : 0;  // the producer's struct_size
            const uint32_t size = p.shape->size;
            const void* out = copy_array(count, size, keep, [&](std::byte* e, size_t i) {
                store(e, size);
                for (const FieldRow& r : p.shape->rows) copy_placed(e, items + i * stride, r.bind.place, intern, keep);
            });
            store(dst + p.at, out);
            return store(dst + p.count, count);
        }
        case Field::object:
            std::memmove(dst + p.at, src + p.at, 1);
            for (const FieldRow& r : p.shape->rows) copy_placed(dst, src, r.bind.place, intern, keep);
            return;
    }
}

// The index of a Shape in kShapes (a template argument for the code made per Shape).
constexpr size_t shape_index(const Shape* shape) {
    for (size_t i = 0; i < kShapes.n; ++i)
        if (kShapes.at[i] == shape) return i;
    return kShapes.n;
}

template <size_t S>
uint64_t fold_element(uint64_t w, const std::byte* e);

// The member P places in the struct at `s`, folded into `w` (lists with their length first), as
// ContentKey::add folds the strings of one element; made per member at compile time, since the
// spec's content key is computed for every pod read.
template <Place P>
inline uint64_t fold_member(uint64_t w, const std::byte* s) {
    auto put = [&](uint64_t x) { w = w * 0x9FB21C651E98DF25ULL + x; };
    if constexpr (P.type == Field::str) {
        put(fast_hash(view(load<kd_str>(s + P.at))));
    } else if constexpr (P.type == Field::int32) {
        put(static_cast<uint64_t>(static_cast<int64_t>(load<int32_t>(s + P.at))));
    } else if constexpr (P.type == Field::boolean) {
        put(load<uint8_t>(s + P.at));
    } else if constexpr (P.type == Field::time) {
        put(static_cast<uint64_t>(load<int64_t>(s + P.at)));
    } else if constexpr (P.type == Field::strs) {
        const auto l = load<kd_str_list>(s + P.at);
        put(l.count);
        for (size_t i = 0; i < l.count; ++i) put(fast_hash(view(l.items[i])));
    } else if constexpr (P.type == Field::kvs) {
        const auto l = load<kd_key_value_list>(s + P.at);
        put(l.count);
        for (size_t i = 0; i < l.count; ++i)
            put(fast_hash(view(l.items[i].key))), put(fast_hash(view(l.items[i].value)));
    } else if constexpr (P.type == Field::list) {
        const auto* items = load<const std::byte*>(s + P.at);
        const auto count = load<size_t>(s + P.count);
        put(count);
        const uint32_t stride = count ? load<uint32_t>(items) : 0;  // the producer's struct_size
        for (size_t i = 0; i < count; ++i) w = fold_element<shape_index(P.shape)>(w, items + i * stride);
    } else if constexpr (P.type == Field::object) {
        put(load<uint8_t>(s + P.at));
        w = fold_element<shape_index(P.shape)>(w, s);
    }
    return w;
}
template <size_t S, size_t... I>
inline uint64_t fold_rows(uint64_t w, const std::byte* e, std::index_sequence<I...>) {
    ((w = fold_member<kShapes.at[S]->rows[I].bind.place>(w, e)), ...);
    return w;
}
template <size_t S>
uint64_t fold_element(uint64_t w, const std::byte* e) {
    return fold_rows<S>(w, e, std::make_index_sequence<kShapes.at[S]->rows.size()>{});
}

// Adds the member P places in the struct at `s` to `k`: a list its length, then a word per
// element; anything else one word.
template <Place P>
inline void add_placed(ContentKey& k, const std::byte* s) {
    if constexpr (P.type == Field::list) {
        const auto* items = load<const std::byte*>(s + P.at);
        const auto count = load<size_t>(s + P.count);
        k.add_word(count);
        const uint32_t stride = count ? load<uint32_t>(items) : 0;
        for (size_t i = 0; i < count; ++i) k.add_word(fold_element<shape_index(P.shape)>(0, items + i * stride));
    } else {
        k.add_word(fold_member<P>(0, s));
    }
}

template <class S, size_t I>
inline void add_one(ContentKey& k, const S& s, bool digested_only) {
    static constexpr Binding b = kBound<S>[I];
    if (digested_only && !b.digested) return;
    if constexpr (b.place.base != Base::none) {
        add_placed<b.place>(k, reinterpret_cast<const std::byte*>(&s));
    } else {
        with_member<S>(b, [&](auto mp) {
            if constexpr (std::is_same_v<typename member_traits<decltype(mp)>::type, kd_str>)
                k.add(view(s.*mp));
            else
                k.add_word(static_cast<uint64_t>(static_cast<int64_t>(s.*mp)));
        });
    }
}
template <class S, size_t... I>
inline void add_each(ContentKey& k, const S& s, bool digested_only, std::index_sequence<I...>) {
    (add_one<S, I>(k, s, digested_only), ...);
}

}  // namespace placed_detail

// Copies every bound member of `src` to `dst`: a kd_str through intern(std::string_view) -> kd_str,
// a list's array (its elements' strings interned and lists copied first) through
// keep(const void* data, size_t bytes) -> const void*, which returns a copy that outlives `dst`.
template <class S, class Intern, class Keep>
void copy_bound(S& dst, const S& src, Intern&& intern, Keep&& keep) {
    for (const Binding& b : kBound<S>) {
        if (b.place.base != Base::none) {
            placed_detail::copy_placed(reinterpret_cast<std::byte*>(&dst), reinterpret_cast<const std::byte*>(&src),
                                       b.place, intern, keep);
            continue;
        }
        with_member<S>(b, [&](auto mp) {
            if constexpr (std::is_same_v<typename member_traits<decltype(mp)>::type, kd_str>)
                dst.*mp = intern(view(src.*mp));
            else
                dst.*mp = src.*mp;
        });
    }
}

// Adds every bound member of `s` to `k` (only the digested ones when `digested_only`).
template <class S>
void add_bound(ContentKey& k, const S& s, bool digested_only = false) {
    placed_detail::add_each(k, s, digested_only, std::make_index_sequence<kBound<S>.size()>{});
}

}  // namespace kd::core::schema
