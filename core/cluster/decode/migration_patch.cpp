#include "cluster/decode/migration_patch.hpp"

#include "cluster/decode/field_problem.hpp"
#include "cluster/decode/migration_reader.hpp"
#include "text/merge_patch.hpp"

#include <string>

namespace kd::core::decode {

namespace {

rapidjson::Document parse(std::string_view text, const char* what) {
    rapidjson::Document d;
    d.Parse(text.data(), text.size());
    if (d.HasParseError() || !d.IsObject())
        throw FieldProblemError(FieldProblem{"", std::string(what) + " is not a JSON object", ""});
    return d;
}

template <class T>
T apply(const T& object, const rapidjson::Value& patch) {
    rapidjson::Document d = parse(object.wire, "the stored object");
    json::apply_merge_patch(d, patch, d.GetAllocator());
    T out;
    read_migration_object(d, out);
    return out;
}

}  // namespace

void read_migration_object(const rapidjson::Value& dom, PodMigrationJob& out) {
    out = read_migration_job(dom);
}

void read_migration_object(const rapidjson::Value& dom, Reservation& out) {
    out = read_reservation(dom);
}

PodMigrationJob patched(const PodMigrationJob& object, const rapidjson::Value& patch) {
    return apply(object, patch);
}

Reservation patched(const Reservation& object, const rapidjson::Value& patch) {
    return apply(object, patch);
}

PodMigrationJob patched(const PodMigrationJob& object, std::string_view patch_json) {
    return apply(object, parse(patch_json, "the patch"));
}

Reservation patched(const Reservation& object, std::string_view patch_json) {
    return apply(object, parse(patch_json, "the patch"));
}

}  // namespace kd::core::decode
