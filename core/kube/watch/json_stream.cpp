#include "kube/watch/json_stream.hpp"

#include <cstdint>
#include <stdexcept>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace kd::core::kube {

void ListSplitter::malformed(const char* what, size_t at) const {
    throw std::runtime_error("the LIST body is not a Kubernetes list: " + std::string(what) + " at byte " +
                             std::to_string(offset_ + at));
}

void ListSplitter::string_done() {
    if (expect_key_) {
        (depth_ == 1 ? key1_ : key2_) = text_;
        expect_key_ = false;
        return;
    }
    if (depth_ == 1 && key1_ == "kind") kind_ = text_;
    if (depth_ == 2 && key1_ == "metadata") {
        if (key2_ == "resourceVersion") resource_version_ = text_;
        if (key2_ == "continue") continue_ = text_;
    }
}

namespace {

// Where each kind of byte sits in 64 bytes of JSON, a bit per byte.
struct BlockMasks {
    uint64_t quote = 0, backslash = 0, open = 0, close = 0;  // open: { [   close: } ]
};

BlockMasks classify(const char* p) {
    BlockMasks m;
#if defined(__SSE2__)
    // '[' | 0x20 == '{' and ']' | 0x20 == '}', and no other byte maps there: one compare each.
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), open = _mm_set1_epi8('{'),
                  close = _mm_set1_epi8('}'), lower = _mm_set1_epi8(0x20);
    for (int k = 0; k < 4; ++k) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
        const __m128i folded = _mm_or_si128(v, lower);
        auto bits = [k](__m128i eq) { return uint64_t(uint32_t(_mm_movemask_epi8(eq))) << (16 * k); };
        m.quote |= bits(_mm_cmpeq_epi8(v, quote));
        m.backslash |= bits(_mm_cmpeq_epi8(v, backslash));
        m.open |= bits(_mm_cmpeq_epi8(folded, open));
        m.close |= bits(_mm_cmpeq_epi8(folded, close));
    }
#else
    for (int k = 0; k < 64; ++k) {
        const uint64_t bit = uint64_t(1) << k;
        const char c = p[k];
        if (c == '"') m.quote |= bit;
        if (c == '\\') m.backslash |= bit;
        if (c == '{' || c == '[') m.open |= bit;
        if (c == '}' || c == ']') m.close |= bit;
    }
#endif
    return m;
}

// The bytes escaped by a backslash that is not itself escaped; `carry` says the block's first byte
// is one, and is set for the next block (simdjson's odd-backslash-run computation).
uint64_t escaped_bytes(uint64_t backslash, uint64_t& carry) {
    backslash &= ~carry;
    const uint64_t follows_backslash = backslash << 1 | carry;
    const uint64_t even = 0x5555555555555555ULL;
    const uint64_t odd_starts = backslash & ~even & ~follows_backslash;
    uint64_t even_runs_end = 0;
    carry = __builtin_add_overflow(odd_starts, backslash, &even_runs_end) ? 1 : 0;
    return (even ^ (even_runs_end << 1)) & follows_backslash;
}

// Bit i set when an odd number of bits at or below i are: the bytes from an opening quote up to
// (not including) its closing one.
uint64_t prefix_xor(uint64_t x) {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

// Where a scan stands: in a string or not, the next byte escaped or not (a backslash escapes the
// next byte anywhere: the same in valid JSON, and one rule for the block and the byte loops), and
// the nesting depth.
struct ScanState {
    bool in_string, escape;
    int depth;
};

// When only the end of a nested value matters, whole 64-byte blocks are classified at once and only
// their brackets outside strings are looked at one by one. Returns the position of the bracket that
// takes the depth down to `until` (the state just before it), or else the first byte of the first
// incomplete block (the state there) — exactly where a byte loop would stand.
size_t scan_blocks(const char* p, size_t i, size_t n, ScanState& s, int until) {
    uint64_t carry = s.escape ? 1 : 0;
    uint64_t in_string = s.in_string ? ~uint64_t(0) : 0;
    for (; n - i >= 64; i += 64) {
        const BlockMasks m = classify(p + i);
        const uint64_t escaped = escaped_bytes(m.backslash, carry);
        const uint64_t inside = prefix_xor(m.quote & ~escaped) ^ in_string;
        const uint64_t open = m.open & ~inside & ~escaped, close = m.close & ~inside & ~escaped;
        for (uint64_t left = open | close; left != 0; left &= left - 1) {
            const int at = __builtin_ctzll(left);
            if (open >> at & 1) {
                ++s.depth;
            } else if (--s.depth == until) {
                ++s.depth;
                s.in_string = s.escape = false;
                return i + size_t(at);
            }
        }
        in_string = uint64_t(int64_t(inside) >> 63);
    }
    s.in_string = in_string != 0;
    s.escape = carry != 0;
    return i;
}

}  // namespace

void ListSplitter::feed(std::string_view chunk) {
    const char* p = chunk.data();
    const size_t n = chunk.size();
    item_start_ = 0;
    for (size_t i = 0; i < n; ++i) {
        if (item_ && n - i >= 64) {
            // Inside an item only its end matters.
            ScanState scan{in_string_, escape_, depth_};
            i = scan_blocks(p, i, n, scan, 2);
            in_string_ = scan.in_string;
            escape_ = scan.escape;
            depth_ = scan.depth;
            if (i == n) break;
        }
        char c = p[i];
        if (escape_) {
            escape_ = false;
            if (in_string_ && text_wanted_) text_ += c;
            continue;
        }
        if (in_string_) {
            // Most bytes are inside strings of items: skip them fast.
            if (!text_wanted_) {
                while (i < n && p[i] != '"' && p[i] != '\\') ++i;
                if (i == n) break;
                c = p[i];
            }
            if (c == '\\') {
                escape_ = true;
                if (text_wanted_) text_ += c;
            } else if (c == '"') {
                in_string_ = false;
                if (text_wanted_) string_done();
            } else if (text_wanted_) {
                text_ += c;
            }
            continue;
        }
        switch (c) {
            case '\\':
                // Not JSON; inside an item it escapes the next byte, as the block scan has it.
                if (item_) escape_ = true;
                break;
            case '"':
                in_string_ = true;
                text_wanted_ = depth_ <= 2 && !item_;
                text_.clear();
                break;
            case '{':
                if (depth_ == 2 && key1_ == "items" && !item_) {
                    item_ = true;
                    item_start_ = i;
                    item_bytes_.clear();
                }
                ++depth_;
                if (!item_) expect_key_ = true;
                if (depth_ == 2) key2_.clear();
                break;
            case '[':
                if (depth_ == 0) malformed("a list instead of an object", i);
                ++depth_;
                break;
            case '}':
            case ']':
                if (--depth_ < 0) malformed("a closing bracket too many", i);
                if (item_ && depth_ == 2) {
                    item_ = false;
                    ++items_;
                    if (item_bytes_.empty()) {
                        on_item_(std::string_view(p + item_start_, i + 1 - item_start_));
                    } else {
                        item_bytes_.append(p, i + 1);
                        on_item_(item_bytes_);
                        item_bytes_.clear();
                    }
                }
                if (depth_ == 0) complete_ = true;
                break;
            case ',':
                if (!item_ && (depth_ == 1 || (depth_ == 2 && key1_ == "metadata"))) expect_key_ = true;
                break;
            default:
                if (depth_ == 0 && c != ' ' && c != '\n' && c != '\r' && c != '\t') malformed("no JSON object", i);
                break;
        }
    }
    if (item_) {
        item_bytes_.append(p + item_start_, n - item_start_);
        if (item_bytes_.size() > kMaxObjectBytes) malformed("an item larger than 64 MiB", n);
    }
    offset_ += n;
}

namespace {

// The end (one past) of the JSON value starting at `i` (an object, array or string) in `t`; npos
// when it does not end there.
size_t value_end(std::string_view t, size_t i) {
    if (i >= t.size()) return std::string_view::npos;
    if (t[i] == '"') {
        for (size_t j = i + 1; j < t.size(); ++j) {
            if (t[j] == '\\')
                ++j;
            else if (t[j] == '"')
                return j + 1;
        }
        return std::string_view::npos;
    }
    if (t[i] == '{' || t[i] == '[') {
        ScanState s{false, false, 1};
        for (size_t j = scan_blocks(t.data(), i + 1, t.size(), s, 0); j < t.size(); ++j) {
            const char c = t[j];
            if (s.escape) {
                s.escape = false;
            } else if (c == '\\') {
                s.escape = true;
            } else if (s.in_string) {
                s.in_string = c != '"';
            } else if (c == '"') {
                s.in_string = true;
            } else if (c == '{' || c == '[') {
                ++s.depth;
            } else if ((c == '}' || c == ']') && --s.depth == 0) {
                return j + 1;
            }
        }
        return std::string_view::npos;
    }
    for (size_t j = i; j < t.size(); ++j)  // a scalar
        if (t[j] == ',' || t[j] == '}') return j;
    return std::string_view::npos;
}

bool is_space(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

size_t skip_space(std::string_view t, size_t i) {
    while (i < t.size() && is_space(t[i])) ++i;
    return i;
}

// The position just after the last non-space byte before `i`.
size_t skip_space_back(std::string_view t, size_t i) {
    while (i > 0 && is_space(t[i - 1])) --i;
    return i;
}

// Calls f(key, value) for each member of the object at t[i]; false when it is not one.
template <class F>
bool members(std::string_view t, size_t i, F&& f) {
    i = skip_space(t, i);
    if (i >= t.size() || t[i] != '{') return false;
    ++i;
    for (;;) {
        i = skip_space(t, i);
        if (i < t.size() && t[i] == '}') return true;
        size_t key_end = value_end(t, i);
        if (key_end == std::string_view::npos || t[i] != '"') return false;
        std::string_view key = t.substr(i + 1, key_end - i - 2);
        i = skip_space(t, key_end);
        if (i >= t.size() || t[i] != ':') return false;
        i = skip_space(t, i + 1);
        size_t end = value_end(t, i);
        if (end == std::string_view::npos) return false;
        if (!f(key, t.substr(i, end - i))) return true;
        i = skip_space(t, end);
        if (i < t.size() && t[i] == ',') {
            ++i;
            continue;
        }
        return i < t.size() && t[i] == '}';
    }
}

std::string_view unquoted(std::string_view v) {
    return v.size() >= 2 && v.front() == '"' ? v.substr(1, v.size() - 2) : std::string_view();
}

}  // namespace

WatchEvent split_watch_event(std::string_view text) {
    WatchEvent e;
    bool ok = members(text, 0, [&](std::string_view key, std::string_view value) {
        if (key == "type") e.type = unquoted(value);
        if (key == "object") e.object = value;
        return true;
    });
    if (!ok || e.type.empty() || e.object.empty() || e.object.front() != '{')
        throw std::runtime_error("a watch event that is not {\"type\": …, \"object\": {…}}");
    // object.metadata.resourceVersion: the API server writes metadata early in each object.
    members(e.object, 0, [&](std::string_view key, std::string_view value) {
        if (key != "metadata") return true;
        members(value, 0, [&](std::string_view k, std::string_view v) {
            if (k != "resourceVersion") return true;
            e.resource_version = unquoted(v);
            return false;
        });
        return false;
    });
    return e;
}

ObjectPieces without_managed_fields(std::string_view object) {
    ObjectPieces whole{object, {}};
    std::string_view metadata;
    members(object, 0, [&](std::string_view key, std::string_view value) {
        if (key != "metadata") return true;
        metadata = value;
        return false;
    });
    if (metadata.empty()) return whole;
    size_t start = 0, end = 0;  // the member's bytes within `object`, with one comma beside it
    bool found = members(metadata, 0, [&](std::string_view key, std::string_view value) {
        if (key != "managedFields") return true;
        start = size_t(key.data() - 1 - object.data());  // its opening quote
        end = size_t(value.data() + value.size() - object.data());
        return false;
    });
    if (!found || end == 0) return whole;
    // The comma before it goes with it; when it is the first member, the comma after it.
    size_t before = skip_space_back(object, start);
    if (object[before - 1] == ',') {
        start = before - 1;
    } else {
        size_t after = skip_space(object, end);
        if (after < object.size() && object[after] == ',') end = after + 1;
    }
    return {object.substr(0, start), object.substr(end)};
}

void WatchSplitter::line(std::string_view text) {
    size_t start = skip_space(text, 0);
    if (start == text.size()) return;
    ++events_;
    on_event_(split_watch_event(text.substr(start)));
}

void WatchSplitter::feed(std::string_view chunk) {
    size_t start = 0;
    for (;;) {
        size_t nl = chunk.find('\n', start);
        if (nl == std::string_view::npos) break;
        if (partial_.empty()) {
            line(chunk.substr(start, nl - start));
        } else {
            partial_.append(chunk.substr(start, nl - start));
            line(partial_);
            partial_.clear();
        }
        start = nl + 1;
    }
    partial_.append(chunk.substr(start));
    if (partial_.size() > kMaxObjectBytes)
        throw std::runtime_error("a watch event of more than " + std::to_string(kMaxObjectBytes) +
                                 " bytes (no end of line)");
}

}  // namespace kd::core::kube
