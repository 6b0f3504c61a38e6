#include "kube/watch/response_splitters.hpp"

#include "cluster/decode/protobuf_wire.hpp"

#include <kdesched/decode.hpp>

#include <rapidjson/document.h>

#include <type_traits>

namespace kd::core::kube {

namespace {

// f(the list splitter) once the encoding is known, `none` before the first byte.
template <class Variant, class R, class F>
R with_splitter(const Variant& v, R none, F&& f) {
    return std::visit(
        [&](const auto& s) -> R {
            if constexpr (std::is_same_v<std::decay_t<decltype(s)>, std::monostate>)
                return none;
            else
                return f(s);
        },
        v);
}

}  // namespace

void ListBodySplitter::feed(std::string_view chunk) {
    if (chunk.empty()) return;
    if (std::holds_alternative<std::monostate>(splitter_)) {
        if (chunk.front() == decode::kProtobufMagic.front())
            splitter_.emplace<ProtobufListSplitter>([this](std::string_view o) { on_item_(o, Encoding::protobuf); });
        else
            splitter_.emplace<ListSplitter>([this](std::string_view o) { on_item_(o, Encoding::json); });
    }
    if (auto* json = std::get_if<ListSplitter>(&splitter_))
        json->feed(chunk);
    else
        std::get<ProtobufListSplitter>(splitter_).feed(chunk);
}

bool ListBodySplitter::complete() const {
    return with_splitter(splitter_, false, [](const auto& s) { return s.complete(); });
}

std::string ListBodySplitter::resource_version() const {
    return with_splitter(splitter_, std::string(), [](const auto& s) { return s.resource_version(); });
}

std::string ListBodySplitter::continue_token() const {
    return with_splitter(splitter_, std::string(), [](const auto& s) { return s.continue_token(); });
}

void WatchStreamSplitter::feed(std::string_view chunk) {
    if (chunk.empty()) return;
    if (std::holds_alternative<std::monostate>(splitter_)) {
        char c = chunk.front();
        if (c == '{' || c == ' ' || c == '\n' || c == '\r' || c == '\t')
            splitter_.emplace<WatchSplitter>([this](const WatchEvent& e) { on_event_(e, Encoding::json); });
        else
            splitter_.emplace<ProtobufWatchSplitter>([this](const WatchEvent& e) { on_event_(e, Encoding::protobuf); });
    }
    if (auto* json = std::get_if<WatchSplitter>(&splitter_))
        json->feed(chunk);
    else
        std::get<ProtobufWatchSplitter>(splitter_).feed(chunk);
}

ErrorEvent read_error_event(std::string_view object, Encoding encoding) {
    if (encoding == Encoding::protobuf) {
        ProtobufStatus s = read_protobuf_status(object);
        return {s.code, s.status.message};
    }
    ErrorEvent out{0, std::string(object)};
    if (kd::json_too_deep(object)) return out;
    rapidjson::Document d;
    d.Parse(object.data(), object.size());
    if (d.HasParseError() || !d.IsObject()) return out;
    auto it = d.FindMember("code");
    if (it != d.MemberEnd() && it->value.IsInt()) out.code = it->value.GetInt();
    return out;
}

}  // namespace kd::core::kube
