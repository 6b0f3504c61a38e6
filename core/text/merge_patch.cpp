#include "text/merge_patch.hpp"

namespace kd::core::json {

void apply_merge_patch(rapidjson::Value& target, const rapidjson::Value& patch, Allocator& a) {
    if (!patch.IsObject()) {
        target.CopyFrom(patch, a);
        return;
    }
    if (!target.IsObject()) target.SetObject();
    for (auto p = patch.MemberBegin(); p != patch.MemberEnd(); ++p) {
        auto t = target.FindMember(p->name);
        if (p->value.IsNull()) {
            if (t != target.MemberEnd()) target.EraseMember(t);  // keeps the order of the rest
            continue;
        }
        if (t == target.MemberEnd()) {
            rapidjson::Value name(p->name, a), value(rapidjson::kNullType);
            target.AddMember(name, value, a);
            t = target.MemberEnd() - 1;
        }
        apply_merge_patch(t->value, p->value, a);
    }
}

rapidjson::Value merge_patch_diff(const rapidjson::Value& from, const rapidjson::Value& to, Allocator& a) {
    rapidjson::Value patch(rapidjson::kObjectType);
    for (auto f = from.MemberBegin(); f != from.MemberEnd(); ++f) {
        auto t = to.FindMember(f->name);
        if (t == to.MemberEnd() || t->value.IsNull()) {
            if (!f->value.IsNull()) patch.AddMember(rapidjson::Value(f->name, a), rapidjson::Value(), a);
            continue;
        }
        if (f->value == t->value) continue;
        rapidjson::Value change;
        if (f->value.IsObject() && t->value.IsObject())
            change = merge_patch_diff(f->value, t->value, a);
        else
            change.CopyFrom(t->value, a);
        patch.AddMember(rapidjson::Value(f->name, a), change, a);
    }
    for (auto t = to.MemberBegin(); t != to.MemberEnd(); ++t) {
        if (t->value.IsNull() || from.FindMember(t->name) != from.MemberEnd()) continue;
        patch.AddMember(rapidjson::Value(t->name, a), rapidjson::Value(t->value, a), a);
    }
    return patch;
}

}  // namespace kd::core::json
