#include "kube/response_splitters.hpp"

#include "cluster/decode/protobuf_wire.hpp"

#include <rapidjson/document.h>

namespace kd::core::kube {

void ListBodySplitter::feed(std::string_view chunk) {
    if (chunk.empty()) return;
    if (std::holds_alternative<std::monostate>(splitter_)) {
        if (chunk.front() == decode::kProtobufMagic.front())
            splitter_.emplace<ProtobufListSplitter>([this](std::string_view o) { on_item_(o, Encoding::protobuf); });
        else
            splitter_.emplace<ListSplitter>([this](std::string_view o) { on_item_(o, Encoding::json); });
    }
    std::visit(
        [&](auto& s) {
            if constexpr (!std::is_same_v<std::decay_t<decltype(s)>, std::monostate>) s.feed(chunk);
        },
        splitter_);
}

bool ListBodySplitter::complete() const {
    if (auto* j = std::get_if<ListSplitter>(&splitter_)) return j->complete();
    if (auto* p = std::get_if<ProtobufListSplitter>(&splitter_)) return p->complete();
    return false;
}

std::string ListBodySplitter::resource_version() const {
    if (auto* j = std::get_if<ListSplitter>(&splitter_)) return j->resource_version();
    if (auto* p = std::get_if<ProtobufListSplitter>(&splitter_)) return p->resource_version();
    return "";
}

std::string ListBodySplitter::continue_token() const {
    if (auto* j = std::get_if<ListSplitter>(&splitter_)) return j->continue_token();
    if (auto* p = std::get_if<ProtobufListSplitter>(&splitter_)) return p->continue_token();
    return "";
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
    std::visit(
        [&](auto& s) {
            if constexpr (!std::is_same_v<std::decay_t<decltype(s)>, std::monostate>) s.feed(chunk);
        },
        splitter_);
}

int error_event_code(std::string_view object, Encoding encoding) {
    if (encoding == Encoding::protobuf) return read_protobuf_status(object).code;
    rapidjson::Document d;
    d.Parse(object.data(), object.size());
    if (d.HasParseError() || !d.IsObject()) return 0;
    auto it = d.FindMember("code");
    return it != d.MemberEnd() && it->value.IsInt() ? it->value.GetInt() : 0;
}

}  // namespace kd::core::kube
