#include "config/build_profiles.hpp"

#include "config/merge_plugin_sets.hpp"
#include "text/json_writer.hpp"

#include <map>

namespace kd::core {

namespace {

constexpr const char* kDefaultProfileName = "koord-descheduler";
constexpr const char* kArgsApiVersion = "descheduler/v1alpha2";

// `"text"` for strings, the JSON type otherwise ("a list").
std::string describe(const rapidjson::Value& v) {
    if (v.IsString()) return "\"" + std::string(v.GetString(), v.GetStringLength()) + "\"";
    return kd::detail::json_type_name(v);
}

PluginSets defaults_at(const SourceLocation& where) {
    PluginSets sets = default_plugin_sets();
    for (auto* list : {&sets.deschedule, &sets.balance, &sets.evict, &sets.filter})
        for (auto& ref : *list) ref.where = where;
    return sets;
}

// The names listed under one `enabled` or `disabled` key; entries without a name are reported.
template <class Add>
void each_named(const std::optional<std::vector<wire::Plugin>>& list, const std::string& path, Reporter& report,
                Add&& add) {
    if (!list) return;
    if (list->size() > kMaxPluginsPerList) {
        report.at(path, std::to_string(list->size()) + " plugins listed, more than " +
                            std::to_string(kMaxPluginsPerList) + " (kMaxPluginsPerList, the limit on one list)");
        return;
    }
    for (size_t i = 0; i < list->size(); ++i) {
        std::string item = kd::index_path(path, i);
        const auto& name = (*list)[i].name;
        if (!name || name->empty()) {
            if (!report.has_problem_under(item)) report.at(kd::field_path(item, "name"), "required: the plugin's name");
            continue;
        }
        add(*name, item);
    }
}

std::vector<PluginRef> merge_point(const std::vector<PluginRef>& defaults, const std::optional<wire::PluginSet>& set,
                                   const std::string& path, Reporter& report) {
    UserPluginSet user;
    if (set) {
        each_named(set->enabled, kd::field_path(path, "enabled"), report,
                   [&](const std::string& name, const std::string& item) {
                       user.enabled.push_back({name, report.index().locate(item)});
                   });
        each_named(set->disabled, kd::field_path(path, "disabled"), report,
                   [&](const std::string& name, const std::string&) { user.disabled.push_back(name); });
    }
    return merge_plugin_set(defaults, user);
}

PluginSets merge_plugins(const wire::Plugins& plugins, const SourceLocation& where, const std::string& path,
                         Reporter& report) {
    PluginSets defaults = defaults_at(where);
    PluginSets merged;
    merged.deschedule =
        merge_point(defaults.deschedule, plugins.deschedule, kd::field_path(path, "deschedule"), report);
    merged.balance = merge_point(defaults.balance, plugins.balance, kd::field_path(path, "balance"), report);
    merged.evict = merge_point(defaults.evict, plugins.evict, kd::field_path(path, "evict"), report);
    merged.filter = merge_point(defaults.filter, plugins.filter, kd::field_path(path, "filter"), report);
    return merged;
}

// apiVersion and kind inside args are optional; when present they must name this plugin's Args kind.
void check_args_type(const rapidjson::Value& args, const std::string& plugin, const std::string& path,
                     Reporter& report) {
    auto api = args.FindMember("apiVersion");
    if (api != args.MemberEnd() && !(api->value.IsString() && api->value.GetString() == std::string(kArgsApiVersion)))
        report.at(kd::field_path(path, "apiVersion"),
                  "must be \"" + std::string(kArgsApiVersion) + "\", got " + describe(api->value));
    auto kind = args.FindMember("kind");
    std::string expected = plugin + "Args";
    if (!plugin.empty() && kind != args.MemberEnd() && !(kind->value.IsString() && kind->value.GetString() == expected))
        report.at(kd::field_path(path, "kind"),
                  "must be \"" + expected + "\" for plugin \"" + plugin + "\", got " + describe(kind->value));
}

bool is_type_meta(std::string_view key) {
    return key == "apiVersion" || key == "kind";
}

std::string args_json(const rapidjson::Value& args) {
    json::TextWriter writer;
    writer.StartObject();
    for (auto it = args.MemberBegin(); it != args.MemberEnd(); ++it) {
        if (is_type_meta({it->name.GetString(), it->name.GetStringLength()})) continue;
        writer.Key(it->name.GetString(), it->name.GetStringLength());
        it->value.Accept(writer);
    }
    writer.EndObject();
    return writer.text();
}

// Every node under args, relative to args, so the runtime can place the plugin's own errors.
std::vector<std::pair<std::string, SourceLocation>> arg_locations(const LocationIndex& index,
                                                                  const std::string& args_path) {
    std::vector<std::pair<std::string, SourceLocation>> out;
    for (const auto& [path, where] : index.in_order()) {
        if (path.size() <= args_path.size() || path.compare(0, args_path.size(), args_path) != 0) continue;
        char next = path[args_path.size()];
        if (next != '.' && next != '[') continue;
        std::string rel = path.substr(args_path.size() + (next == '.' ? 1 : 0));
        std::string top = rel.substr(0, rel.find_first_of(".["));
        if (is_type_meta(top)) continue;
        out.emplace_back(std::move(rel), preferred_location(where, false));
    }
    return out;
}

PluginConfig build_plugin_config(const wire::PluginConfig& in, const std::string& path, Reporter& report) {
    PluginConfig pc;
    pc.name = in.name.value_or("");
    std::string args_path = kd::field_path(path, "args");
    const NodeLocation* args_at = report.index().exact(args_path);
    pc.where = args_at ? args_at->key : report.index().locate(path);
    if (!in.args || !in.args->value || in.args->value->IsNull()) return pc;  // argsJson stays "{}"
    const rapidjson::Value& args = *in.args->value;
    if (!args.IsObject()) {
        report.at(args_path, "must be a mapping, got " + describe(args));
        return pc;
    }
    check_args_type(args, pc.name, args_path, report);
    pc.argsJson = args_json(args);
    pc.argLocations = arg_locations(report.index(), args_path);
    return pc;
}

Profile build_profile(const wire::Profile& in, const std::string& path, Reporter& report) {
    Profile p;
    p.name = in.name.value_or("");
    p.where = report.index().locate(path);
    if (in.nodeSelector) {
        kd::Errors errs;
        kd::validate_value(*in.nodeSelector, errs, kd::field_path(path, "nodeSelector"));
        report.add(errs);
        p.nodeSelector = in.nodeSelector;
    }
    std::string plugins_path = kd::field_path(path, "plugins");
    if (in.plugins) {
        p.plugins = merge_plugins(*in.plugins, p.where, plugins_path, report);
    } else {
        if (!report.has_problem_under(plugins_path))
            report.at(plugins_path, "required: a profile must list its plugins (\"plugins: {}\" keeps the defaults)");
        p.plugins = defaults_at(p.where);
    }
    p.pluginConfig = build_plugin_configs(in.pluginConfig, kd::field_path(path, "pluginConfig"), report);
    return p;
}

}  // namespace

std::vector<PluginConfig> build_plugin_configs(const std::optional<std::vector<wire::PluginConfig>>& list,
                                               const std::string& path, Reporter& report) {
    std::vector<PluginConfig> out;
    if (!list) return out;
    std::map<std::string, size_t> seen;
    for (size_t i = 0; i < list->size(); ++i) {
        std::string item = kd::index_path(path, i);
        std::string name_path = kd::field_path(item, "name");
        const auto& name = (*list)[i].name;
        if (!name || name->empty()) {
            if (!report.has_problem_under(name_path)) report.at(name_path, "required: the plugin this config is for");
        } else if (!seen.emplace(*name, i).second) {
            report.at(name_path, "repeated config for plugin \"" + *name + "\"");
        }
        out.push_back(build_plugin_config((*list)[i], item, report));
    }
    return out;
}

void check_profile_names(std::vector<Profile>& profiles, const std::string& default_name, Reporter& report) {
    if (profiles.size() == 1 && profiles[0].name.empty()) {
        if (!report.has_problem_under("profiles[0].name")) profiles[0].name = default_name;
        return;
    }
    std::map<std::string, size_t> seen;
    for (size_t i = 0; i < profiles.size(); ++i) {
        std::string name_path = kd::field_path(kd::index_path("profiles", i), "name");
        if (report.has_problem_under(name_path)) continue;
        if (profiles[i].name.empty()) {
            report.at(name_path, "required: every profile needs a name when there are several");
            continue;
        }
        auto [first, inserted] = seen.emplace(profiles[i].name, i);
        if (!inserted)
            report.at(name_path, "duplicate profile name \"" + profiles[i].name + "\" (also profiles[" +
                                     std::to_string(first->second) + "])");
    }
}

std::vector<Profile> build_profiles(const std::optional<std::vector<wire::Profile>>& profiles, Reporter& report) {
    std::vector<Profile> out;
    if (!profiles || profiles->empty()) {
        // No profiles: one default profile, as Koordinator adds an empty one.
        const NodeLocation* at = report.index().exact("profiles");
        Profile p;
        p.name = kDefaultProfileName;
        p.where = at ? at->key : SourceLocation{report.origin(), 0, 0};
        p.plugins = defaults_at(p.where);
        out.push_back(std::move(p));
        return out;
    }
    if (profiles->size() > kMaxProfiles) {
        report.at("profiles", std::to_string(profiles->size()) + " profiles, more than " +
                                  std::to_string(kMaxProfiles) +
                                  " (kMaxProfiles, the limit on one file): run several kdesched instances instead");
        return out;
    }
    for (size_t i = 0; i < profiles->size(); ++i)
        out.push_back(build_profile((*profiles)[i], kd::index_path("profiles", i), report));
    check_profile_names(out, kDefaultProfileName, report);
    return out;
}

}  // namespace kd::core
