#include "kube/json_stream.hpp"

#include <stdexcept>

namespace kd::core::kube {

void ListSplitter::malformed(const char* what) const {
    throw std::runtime_error("the LIST body is not a Kubernetes list: " + std::string(what) + " at byte " +
                             std::to_string(offset_));
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

void ListSplitter::feed(std::string_view chunk) {
    const char* p = chunk.data();
    const size_t n = chunk.size();
    item_start_ = 0;
    for (size_t i = 0; i < n; ++i) {
        char c = p[i];
        if (in_string_) {
            if (escape_) {
                escape_ = false;
                if (text_wanted_) text_ += c;
                continue;
            }
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
                if (depth_ == 0) malformed("a list instead of an object");
                ++depth_;
                break;
            case '}':
            case ']':
                if (--depth_ < 0) malformed("a closing bracket too many");
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
                if (depth_ == 0 && c != ' ' && c != '\n' && c != '\r' && c != '\t') malformed("no JSON object");
                break;
        }
    }
    if (item_) {
        item_bytes_.append(p + item_start_, n - item_start_);
        if (item_bytes_.size() > kMaxObjectBytes) malformed("an item larger than 64 MiB");
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
    int depth = 0;
    bool in_string = false;
    for (size_t j = i; j < t.size(); ++j) {
        char c = t[j];
        if (in_string) {
            if (c == '\\')
                ++j;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            if (--depth == 0) return j + 1;
        } else if (depth == 0 && (c == ',' || c == '}')) {
            return j;  // a scalar
        }
    }
    return std::string_view::npos;
}

size_t skip_space(std::string_view t, size_t i) {
    while (i < t.size() && (t[i] == ' ' || t[i] == '\n' || t[i] == '\r' || t[i] == '\t')) ++i;
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
