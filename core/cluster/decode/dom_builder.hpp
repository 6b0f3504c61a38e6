// A SAX handler that builds a rapidjson::Document from events fed to it one at a time.
//
// rapidjson::Document is itself a handler, but it can only own a root built inside one
// Parse/Populate call; the JSON router records an object event by event while the reader is
// running, and only learns at the object's end what to do with it. Strings are referenced, not
// copied: they point into the in-situ buffer (or another DOM) that outlives the recording.
#pragma once

#include <rapidjson/document.h>

#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

namespace kd::core::decode {

class DomBuilder {
public:
    using SizeType = rapidjson::SizeType;

    // Starts a fresh document; the events of exactly one value follow.
    void begin() {
        doc_ = std::make_unique<rapidjson::Document>();
        stack_.clear();
        starts_.clear();
    }
    // True once the root value is complete.
    bool done() const { return starts_.empty() && stack_.size() == 1; }
    // The finished document (after done()).
    std::unique_ptr<rapidjson::Document> take() {
        rapidjson::Value& root = *doc_;
        root = std::move(stack_.back());
        stack_.clear();
        return std::move(doc_);
    }

    bool Null() { return push(rapidjson::Value()); }
    bool Bool(bool b) { return push(rapidjson::Value(b)); }
    bool Int(int i) { return push(rapidjson::Value(i)); }
    bool Uint(unsigned u) { return push(rapidjson::Value(u)); }
    bool Int64(int64_t i) { return push(rapidjson::Value(i)); }
    bool Uint64(uint64_t u) { return push(rapidjson::Value(u)); }
    bool Double(double d) { return push(rapidjson::Value(d)); }
    bool RawNumber(const char* s, SizeType n, bool copy) { return String(s, n, copy); }
    bool String(const char* s, SizeType n, bool copy) {
        if (copy) return push(rapidjson::Value(s, n, doc_->GetAllocator()));
        return push(rapidjson::Value(rapidjson::StringRef(s, n)));
    }
    bool Key(const char* s, SizeType n, bool copy) { return String(s, n, copy); }
    bool StartObject() {
        starts_.push_back(stack_.size());
        return true;
    }
    bool EndObject(SizeType = 0) {
        size_t begin = starts_.back();
        starts_.pop_back();
        rapidjson::Value obj(rapidjson::kObjectType);
        auto& alloc = doc_->GetAllocator();
        for (size_t i = begin; i + 1 < stack_.size(); i += 2) obj.AddMember(stack_[i], stack_[i + 1], alloc);
        stack_.resize(begin);
        return push(std::move(obj));
    }
    bool StartArray() {
        starts_.push_back(stack_.size());
        return true;
    }
    bool EndArray(SizeType = 0) {
        size_t begin = starts_.back();
        starts_.pop_back();
        rapidjson::Value arr(rapidjson::kArrayType);
        auto& alloc = doc_->GetAllocator();
        arr.Reserve(static_cast<SizeType>(stack_.size() - begin), alloc);
        for (size_t i = begin; i < stack_.size(); ++i) arr.PushBack(stack_[i], alloc);
        stack_.resize(begin);
        return push(std::move(arr));
    }

    // Convenience for the router, which replays what it read before deciding to record.
    void key(std::string_view k) { Key(k.data(), static_cast<SizeType>(k.size()), false); }
    void string(std::string_view v) { String(v.data(), static_cast<SizeType>(v.size()), false); }

private:
    bool push(rapidjson::Value&& v) {
        stack_.push_back(std::move(v));
        return true;
    }

    std::unique_ptr<rapidjson::Document> doc_;
    std::vector<rapidjson::Value> stack_;  // values of the open containers, keys and values alternating in objects
    std::vector<size_t> starts_;           // where each open container's values begin in stack_
};

}  // namespace kd::core::decode
