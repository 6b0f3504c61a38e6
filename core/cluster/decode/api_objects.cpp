#include "cluster/decode/api_objects.hpp"

#include "cluster/decode/file_context.hpp"
#include "cluster/decode/json_input.hpp"
#include "cluster/decode/protobuf_input.hpp"
#include "error.hpp"

#include <utility>

namespace kd::core {

ApiObjectDecoder::ApiObjectDecoder(std::string origin, std::string item_kind, std::string item_api, ObjectSink& sink)
    : item_kind_(std::move(item_kind)),
      item_api_(std::move(item_api)),
      ctx_(std::make_unique<decode::FileContext>(std::move(origin), sink, nullptr)) {}

ApiObjectDecoder::~ApiObjectDecoder() = default;

std::optional<std::string> ApiObjectDecoder::decode(char* text, size_t size) {
    try {
        decode::decode_json(text, size, *ctx_, item_kind_, item_api_);
    } catch (const Error& e) {
        return std::string(e.what());
    }
    return std::nullopt;
}

std::optional<std::string> ApiObjectDecoder::decode_protobuf(std::string_view message) {
    try {
        decode::decode_protobuf(message, *ctx_, item_kind_, item_api_);
    } catch (const Error& e) {
        return std::string(e.what());
    }
    return std::nullopt;
}

std::optional<std::string> decode_api_objects(char* text, size_t size, const std::string& origin,
                                              std::string_view item_kind, std::string_view item_api, ObjectSink& sink) {
    return ApiObjectDecoder(origin, std::string(item_kind), std::string(item_api), sink).decode(text, size);
}

}  // namespace kd::core
