#include "cluster/decode/file_context.hpp"

#include "cluster/decode/kinds.hpp"
#include "cluster/decode/migration_reader.hpp"
#include "cluster/decode/usage_metrics_reader.hpp"
#include "error.hpp"
#include "text/location_index.hpp"

#include <kdesched/decode.hpp>

#include <algorithm>

namespace kd::core::decode {

namespace {

std::string_view string_member(const rapidjson::Value& obj, const char* key) {
    if (!obj.IsObject()) return {};
    auto it = obj.FindMember(key);
    if (it == obj.MemberEnd() || !it->value.IsString()) return {};
    return std::string_view(it->value.GetString(), it->value.GetStringLength());
}

std::string_view meta_member(const rapidjson::Value& obj, const char* key) {
    if (!obj.IsObject()) return {};
    auto it = obj.FindMember("metadata");
    if (it == obj.MemberEnd()) return {};
    return string_member(it->value, key);
}

std::string join_path(const std::string& base, const std::string& rest) {
    if (base.empty()) return rest;
    if (rest.empty()) return base;
    return base + "." + rest;
}

}  // namespace

FileContext::FileContext(std::string origin, ObjectSink& sink, std::function<std::string()> original)
    : origin_(std::move(origin)), sink_(sink), original_(std::move(original)) {}

template <class Deliver>
void FileContext::hand_over(size_t index, std::string_view kind, std::string_view ns, std::string_view name,
                            Deliver&& deliver) {
    try {
        deliver();
    } catch (const Error& e) {
        // The model's complaint (a duplicate, …), said about this object.
        throw Error(origin_ + ": " + object_label(index, kind, ns, name), e.what());
    }
    for (auto& [n, count] : counts_)
        if (n == kind) return void(++count);
    counts_.emplace_back(std::string(kind), 1);
}

void FileContext::decode_document(const rapidjson::Value& doc, const LocationIndex* where) {
    if (doc.IsNull()) return;
    if (doc.IsArray()) {
        for (rapidjson::SizeType i = 0; i < doc.Size(); ++i)
            decode_object(doc[i], next_index(), "", "", where, kd::index_path("", i));
        return;
    }
    if (!doc.IsObject())
        fail_object(peek_index(), "",
                    std::string("expected an object or a list of objects, got ") + kd::detail::json_type_name(doc));
    auto kind_it = doc.FindMember("kind");
    auto items_it = doc.FindMember("items");
    bool has_kind = kind_it != doc.MemberEnd() && !kind_it->value.IsNull();
    std::string_view kind = string_member(doc, "kind");
    bool list_kind = is_list_kind(kind);
    if (items_it != doc.MemberEnd() && (!has_kind || list_kind)) {
        const rapidjson::Value& items = items_it->value;
        if (items.IsNull()) return;
        if (!items.IsArray())
            fail_object(peek_index(), kind,
                        std::string("items: must be a list, got ") + kd::detail::json_type_name(items));
        std::string_view item_kind = item_kind_of_list(kind);
        std::string_view api = string_member(doc, "apiVersion");
        for (rapidjson::SizeType i = 0; i < items.Size(); ++i)
            decode_object(items[i], next_index(), item_kind, api, where, kd::index_path("items", i));
        return;
    }
    if (list_kind) return;  // a List without items
    decode_object(doc, next_index(), "", "", where, "");
}

void FileContext::decode_object(const rapidjson::Value& obj, size_t index, std::string_view default_kind,
                                std::string_view default_api, const LocationIndex* where, const std::string& path) {
    if (!obj.IsObject())
        fail_object(index, "", std::string("expected an object, got ") + kd::detail::json_type_name(obj));
    std::string_view kind = default_kind;
    auto kind_it = obj.FindMember("kind");
    if (kind_it != obj.MemberEnd() && !kind_it->value.IsNull()) {
        if (!kind_it->value.IsString())
            fail(index, "", meta_member(obj, "namespace"), meta_member(obj, "name"),
                 FieldProblem{"kind",
                              std::string("must be a string, got ") + kd::detail::json_type_name(kind_it->value), ""},
                 where, path);
        kind = std::string_view(kind_it->value.GetString(), kind_it->value.GetStringLength());
    }
    if (kind.empty())
        fail_object(index, "", "the object has no kind", FieldProblem::kNoOffset,
                    "every object needs apiVersion and kind, as kubectl prints them");
    std::string_view api = string_member(obj, "apiVersion");
    if (api.empty()) api = default_api;
    if (is_usage_metrics_kind(kind)) return decode_usage_metrics(obj, index, kind, api, where, path);
    Kind k = classify_kind(kind);
    if (is_drafted(k)) {
        decoder_.begin(k, kind, api);
        obj.Accept(decoder_);
        finish_decoded(index, where, path);
        return;
    }
    if (k == Kind::other) return skipped(kind);
    std::string_view wanted = required_api_version(k);
    if (!api.empty() && api != wanted) return skipped(kind, api, wanted);
    std::string_view ns = meta_member(obj, "namespace"), name = meta_member(obj, "name");
    auto read = [&](auto reader) {
        try {
            return reader(obj);
        } catch (const FieldProblemError& e) {
            fail(index, kind, ns, name, e.problem, where, path);
        }
    };
    if (k == Kind::migration_job) {
        PodMigrationJob job = read(read_migration_job);
        hand_over(index, kind, ns, name, [&] { sink_.on_migration_job(std::move(job)); });
    } else {
        Reservation r = read(read_reservation);
        hand_over(index, kind, ns, name, [&] { sink_.on_reservation(std::move(r)); });
    }
}

void FileContext::decode_usage_metrics(const rapidjson::Value& obj, size_t index, std::string_view kind,
                                       std::string_view api, const LocationIndex* where, const std::string& path) {
    if (!api.empty() && api != kMetricsApiVersion) return skipped(kind, api, kMetricsApiVersion);
    std::string_view ns = meta_member(obj, "namespace"), name = meta_member(obj, "name");
    try {
        if (kind == kNodeMetricsKind) {
            NodeUsage n = read_node_usage(obj);
            hand_over(index, kind, ns, name, [&] { sink_.on_node_usage(std::move(n)); });
        } else {
            PodUsage p = read_pod_usage(obj);
            hand_over(index, kind, ns, name, [&] { sink_.on_pod_usage(std::move(p)); });
        }
    } catch (const FieldProblemError& e) {
        fail(index, kind, ns, name, e.problem, where, path);
    }
}

void FileContext::finish_decoded(size_t index, const LocationIndex* where, const std::string& path) {
    const ObjectDecoder& d = decoder_;
    std::string_view wanted = required_api_version(d.kind());
    if (!wanted.empty() && !d.api_version().empty() && d.api_version() != wanted)
        return skipped(d.kind_name(), d.api_version(), wanted);
    if (d.problem()) fail(index, d.kind_name(), d.meta().ns, d.meta().name, *d.problem(), where, path);
    hand_over(index, d.kind_name(), d.meta().ns, d.meta().name, [&] { d.deliver(sink_); });
}

void FileContext::skipped(std::string_view kind, std::string_view api_version, std::string_view wanted_api) {
    for (auto& s : skipped_)
        if (s.kind == kind && s.api_version == api_version) return void(++s.count);
    skipped_.push_back(Skip{std::string(kind), std::string(api_version), std::string(wanted_api), 1});
}

std::string FileContext::object_label(size_t index, std::string_view kind, std::string_view ns,
                                      std::string_view name) const {
    std::string out = "object #" + std::to_string(index);
    if (kind.empty()) return out;
    out += " (";
    out += kind;
    if (!name.empty()) {
        out += ' ';
        if (!ns.empty()) out += std::string(ns) + "/";
        out += name;
    }
    return out + ")";
}

void FileContext::fail(size_t index, std::string_view kind, std::string_view ns, std::string_view name,
                       const FieldProblem& problem, const LocationIndex* where, const std::string& path) const {
    std::string at = origin_;
    if (where)
        at = where->locate(join_path(path, problem.path)).text();
    else if (problem.offset != FieldProblem::kNoOffset)
        at = position(problem.offset);
    std::string what = problem.path.empty() ? problem.message : problem.path + ": " + problem.message;
    throw Error(at + ": " + object_label(index, kind, ns, name), what, problem.hint);
}

void FileContext::fail_object(size_t index, std::string_view kind, std::string message, size_t offset,
                              std::string hint) const {
    std::string at = offset == FieldProblem::kNoOffset ? origin_ : position(offset);
    throw Error(at + ": " + object_label(index, kind, "", ""), message, hint);
}

std::string FileContext::position(size_t offset) const {
    std::string text = original_ ? original_() : std::string();
    if (text.empty()) return origin_;
    offset = std::min(offset, text.size());
    size_t line = 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n'));
    size_t newline = offset == 0 ? std::string::npos : text.rfind('\n', offset - 1);
    size_t line_start = newline == std::string::npos ? 0 : newline + 1;
    return origin_ + ":" + std::to_string(line) + ":" + std::to_string(offset - line_start + 1);
}

void FileContext::close(LoadReport& report) {
    for (const auto& [kind, count] : counts_) report.objects[kind] += count;
    for (const auto& s : skipped_) {
        std::string line = origin_ + ": skipped " + std::to_string(s.count) + (s.count == 1 ? " object" : " objects") +
                           " of kind " + s.kind;
        if (s.wanted_api.empty())
            line += " (not used by kdesched)";
        else
            line += " with apiVersion " + s.api_version + " (kdesched reads " + s.wanted_api + ")";
        report.notes.push_back(std::move(line));
    }
}

}  // namespace kd::core::decode
