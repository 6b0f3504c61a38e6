// What is done with the bound rows' values (cluster/schema/object_schema.hpp), once for all of
// them: copied from a draft's kd_pod / kd_pod_spec into the model's (strings through an intern
// function), and added to a content key (the spec cache's, the model digest's).
#pragma once

#include "cluster/content_key.hpp"
#include "cluster/schema/object_schema.hpp"
#include "cluster/string_pool.hpp"

#include <cstdint>
#include <type_traits>

namespace kd::core::schema {

// Copies every bound member of `src` to `dst`; a kd_str through intern(std::string_view) -> kd_str.
template <class S, class Intern>
void copy_bound(S& dst, const S& src, Intern&& intern) {
    for (const Binding& b : kBound<S>)
        with_member<S>(b, [&](auto mp) {
            if constexpr (std::is_same_v<typename member_traits<decltype(mp)>::type, kd_str>)
                dst.*mp = intern(view(src.*mp));
            else
                dst.*mp = src.*mp;
        });
}

// Adds every bound member of `s` to `k` (only the digested ones when `digested_only`).
template <class S>
void add_bound(ContentKey& k, const S& s, bool digested_only = false) {
    for (const Binding& b : kBound<S>) {
        if (digested_only && !b.digested) continue;
        with_member<S>(b, [&](auto mp) {
            if constexpr (std::is_same_v<typename member_traits<decltype(mp)>::type, kd_str>)
                k.add(view(s.*mp));
            else
                k.add_word(static_cast<uint64_t>(static_cast<int64_t>(s.*mp)));
        });
    }
}

}  // namespace kd::core::schema
