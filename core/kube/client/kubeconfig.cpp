#include "kube/client/kubeconfig.hpp"

#include "error.hpp"
#include "net/base64.hpp"
#include "net/tls_material.hpp"
#include "text/input_file.hpp"
#include "text/reporter.hpp"
#include "text/yaml_documents.hpp"
#include "text/yaml_to_json.hpp"

#include <kdesched/decode.hpp>

#include <rapidjson/document.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>

namespace kd::core::kube {

namespace fs = std::filesystem;
using rapidjson::Value;

namespace {

constexpr size_t kMaxKubeconfigBytes = 16u << 20;

// One kubeconfig file as read: its JSON form, where each field was written, its folder.
struct File {
    std::string path, dir;
    rapidjson::Document doc;
    LocationIndex where;
};

// An entry of clusters/users/contexts: the first file that names it wins, as kubectl merges.
struct Entry {
    const File* file = nullptr;
    const Value* body = nullptr;  // the `cluster` / `user` / `context` mapping (may be null)
    std::string path;             // its JSON path in the file ("users[2].user")
};

[[noreturn]] void fail(const File& f, const std::string& path, const std::string& what, const std::string& hint = "") {
    throw Error(f.where.locate(path).text(), path.empty() ? what : path + ": " + what, hint);
}

const Value* member(const File& f, const Value* obj, const std::string& path, const char* key) {
    if (!obj) return nullptr;
    if (!obj->IsObject()) fail(f, path, std::string("must be a mapping, got ") + kd::detail::json_type_name(*obj));
    auto it = obj->FindMember(key);
    return it == obj->MemberEnd() || it->value.IsNull() ? nullptr : &it->value;
}

std::string string_field(const File& f, const Value* obj, const std::string& path, const char* key) {
    const Value* v = member(f, obj, path, key);
    if (!v) return "";
    if (!v->IsString())
        fail(f, kd::field_path(path, key), std::string("must be a string, got ") + kd::detail::json_type_name(*v));
    return std::string(v->GetString(), v->GetStringLength());
}

bool bool_field(const File& f, const Value* obj, const std::string& path, const char* key) {
    const Value* v = member(f, obj, path, key);
    if (!v) return false;
    if (!v->IsBool())
        fail(f, kd::field_path(path, key), std::string("must be true or false, got ") + kd::detail::json_type_name(*v));
    return v->GetBool();
}

// A list field; each element must be a mapping.
template <class Each>
void each_mapping(const File& f, const Value* obj, const std::string& path, const char* key, Each&& each) {
    const Value* list = member(f, obj, path, key);
    if (!list) return;
    std::string lp = kd::field_path(path, key);
    if (!list->IsArray()) fail(f, lp, std::string("must be a list, got ") + kd::detail::json_type_name(*list));
    for (rapidjson::SizeType i = 0; i < list->Size(); ++i) {
        std::string ip = kd::index_path(lp, i);
        if (!(*list)[i].IsObject()) fail(f, ip, "must be a mapping");
        each((*list)[i], ip);
    }
}

std::unique_ptr<File> read_file(const std::string& path) {
    auto f = std::make_unique<File>();
    f->path = path;
    f->dir = fs::absolute(path).parent_path().string();
    std::string text = read_small_file(path, kMaxKubeconfigBytes, "the kubeconfig");
    std::vector<YAML::Node> docs = load_yaml_documents(text, path);
    if (docs.size() > 1)
        throw Error(path, "holds " + std::to_string(docs.size()) + " YAML documents; a kubeconfig is one");
    f->doc.SetObject();
    if (docs.empty() || docs[0].IsNull()) return f;  // an empty file merges as nothing
    Reporter report(path, f->where);
    yaml_to_json(docs[0], path, f->doc, f->where, report);
    report.raise_if_any();
    if (!f->doc.IsObject()) fail(*f, "", "a kubeconfig must be a mapping (apiVersion: v1, kind: Config)");
    return f;
}

// A path in a kubeconfig is relative to the file's folder (kubectl's rule).
std::string resolve(const File& f, const std::string& p) {
    if (p.empty() || fs::path(p).is_absolute()) return p;
    return (fs::path(f.dir) / p).lexically_normal().string();
}

// PEM text from `<key>` (a file) or `<key>-data` (base64), checked with `check`.
std::string pem_field(const File& f, const Value* obj, const std::string& path, const std::string& key,
                      std::string (*check)(const std::string&), const std::string& who) {
    std::string file = string_field(f, obj, path, key.c_str());
    std::string data = string_field(f, obj, path, (key + "-data").c_str());
    if (!file.empty() && !data.empty())
        fail(f, kd::field_path(path, key), "both " + key + " and " + key + "-data are set for " + who,
             "keep one of them");
    std::string pem, field = kd::field_path(path, data.empty() ? key : key + "-data");
    if (!data.empty()) {
        auto decoded = net::decode_base64(data);
        if (!decoded) fail(f, field, "is not valid base64 (" + who + ")");
        pem = *decoded;
    } else if (!file.empty()) {
        std::string resolved = resolve(f, file);
        try {
            pem = read_small_file(resolved, kMaxKubeconfigBytes, "the " + key + " file");
        } catch (const Error& e) {
            fail(f, field, std::string(e.what()) + " (" + who + ")");
        }
    } else {
        return "";
    }
    if (std::string bad = check(pem); !bad.empty()) fail(f, field, bad + " (" + who + ")");
    return pem;
}

std::vector<std::string> names(const std::map<std::string, Entry>& m) {
    std::vector<std::string> out;
    for (const auto& [name, e] : m) out.push_back(name);
    return out;
}

std::string joined(const std::vector<std::string>& v) {
    std::string out;
    for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
    return out.empty() ? "none" : out;
}

void read_exec(const File& f, const Value* user, const std::string& path, const std::string& who, Connection& c) {
    const Value* exec = member(f, user, path, "exec");
    if (!exec) return;
    std::string ep = kd::field_path(path, "exec");
    ExecConfig e;
    e.where = who;
    e.api_version = string_field(f, exec, ep, "apiVersion");
    if (e.api_version != "client.authentication.k8s.io/v1" && e.api_version != "client.authentication.k8s.io/v1beta1")
        fail(f, kd::field_path(ep, "apiVersion"),
             "must be client.authentication.k8s.io/v1 or client.authentication.k8s.io/v1beta1, got \"" + e.api_version +
                 "\" (" + who + ")");
    e.command = string_field(f, exec, ep, "command");
    if (e.command.empty()) fail(f, kd::field_path(ep, "command"), "must be set (" + who + ")");
    if (e.command.find('/') != std::string::npos) e.command = resolve(f, e.command);
    if (const Value* args = member(f, exec, ep, "args")) {
        std::string ap = kd::field_path(ep, "args");
        if (!args->IsArray()) fail(f, ap, "must be a list of strings");
        for (rapidjson::SizeType i = 0; i < args->Size(); ++i) {
            if (!(*args)[i].IsString()) fail(f, kd::index_path(ap, i), "must be a string");
            e.args.emplace_back((*args)[i].GetString(), (*args)[i].GetStringLength());
        }
    }
    each_mapping(f, exec, ep, "env", [&](const Value& v, const std::string& p) {
        std::string name = string_field(f, &v, p, "name");
        if (name.empty()) fail(f, kd::field_path(p, "name"), "must be set");
        e.env.emplace_back(name, string_field(f, &v, p, "value"));
    });
    e.install_hint = string_field(f, exec, ep, "installHint");
    e.provide_cluster_info = bool_field(f, exec, ep, "provideClusterInfo");
    c.exec = std::move(e);
}

}  // namespace

Connection read_kubeconfig(const std::vector<std::string>& paths, const std::string& context_name) {
    std::vector<std::unique_ptr<File>> files;
    for (const auto& p : paths) files.push_back(read_file(p));
    std::map<std::string, Entry> clusters, users, contexts;
    std::string current;
    const std::string all = joined(paths);
    for (const auto& f : files) {
        auto collect = [&](const char* list, const char* body, std::map<std::string, Entry>& into) {
            each_mapping(*f, &f->doc, "", list, [&](const Value& v, const std::string& p) {
                std::string name = string_field(*f, &v, p, "name");
                if (name.empty()) fail(*f, kd::field_path(p, "name"), "must be set");
                const Value* b = member(*f, &v, p, body);
                if (b && !b->IsObject()) fail(*f, kd::field_path(p, body), "must be a mapping");
                into.emplace(name, Entry{f.get(), b, kd::field_path(p, body)});  // the first file wins
            });
        };
        collect("clusters", "cluster", clusters);
        collect("users", "user", users);
        collect("contexts", "context", contexts);
        if (current.empty()) current = string_field(*f, &f->doc, "", "current-context");
    }
    Connection c;
    c.context = context_name.empty() ? current : context_name;
    if (c.context.empty())
        throw Error(all, "no current-context is set and no --context was given",
                    "choose one of the contexts (" + joined(names(contexts)) +
                        ") with --context, or `kubectl config use-context NAME`");
    auto ctx = contexts.find(c.context);
    if (ctx == contexts.end())
        throw Error(all, "context \"" + c.context + "\" does not exist (contexts: " + joined(names(contexts)) + ")",
                    "give one of them with --context");
    const Entry& ce = ctx->second;
    c.cluster_name = string_field(*ce.file, ce.body, ce.path, "cluster");
    c.user_name = string_field(*ce.file, ce.body, ce.path, "user");
    c.namespace_ = string_field(*ce.file, ce.body, ce.path, "namespace");
    c.source = "kubeconfig " + all + " (context " + c.context + ")";
    auto cl = clusters.find(c.cluster_name);
    if (cl == clusters.end())
        fail(*ce.file, kd::field_path(ce.path, "cluster"),
             "context \"" + c.context + "\" names cluster \"" + c.cluster_name +
                 "\", which does not exist (clusters: " + joined(names(clusters)) + ")");

    // The cluster.
    const Entry& k = cl->second;
    const std::string cwho = "cluster " + c.cluster_name;
    c.server = string_field(*k.file, k.body, k.path, "server");
    if (c.server.empty()) fail(*k.file, kd::field_path(k.path, "server"), "must be set (" + cwho + ")");
    if (c.server.rfind("https://", 0) != 0 && c.server.rfind("http://", 0) != 0)
        fail(*k.file, kd::field_path(k.path, "server"),
             "must be an http:// or https:// URL, got \"" + c.server + "\" (" + cwho + ")");
    c.tls.ca_pem = pem_field(*k.file, k.body, k.path, "certificate-authority", net::certificate_problem, cwho);
    c.ca_data_base64 = string_field(*k.file, k.body, k.path, "certificate-authority-data");
    // kubectl: a kubeconfig's CA replaces the system's store.
    c.tls.use_system_store = c.tls.ca_pem.empty();
    c.tls.server_name = string_field(*k.file, k.body, k.path, "tls-server-name");
    c.tls.insecure_skip_verify = bool_field(*k.file, k.body, k.path, "insecure-skip-tls-verify");
    if (c.tls.insecure_skip_verify && !c.tls.ca_pem.empty())
        fail(*k.file, kd::field_path(k.path, "insecure-skip-tls-verify"),
             "specifying a root certificates file with the insecure flag is not allowed (" + cwho + ")",
             "remove one of them");
    if (c.tls.insecure_skip_verify)
        c.warnings.push_back(k.file->where.locate(kd::field_path(k.path, "insecure-skip-tls-verify")).text() + ": " +
                             cwho + " sets insecure-skip-tls-verify: the API server's certificate is not verified");
    if (!string_field(*k.file, k.body, k.path, "proxy-url").empty())
        fail(*k.file, kd::field_path(k.path, "proxy-url"), "proxies are not supported (" + cwho + ")",
             "reach the API server directly");

    // The user.
    auto us = users.find(c.user_name);
    if (us == users.end()) {
        if (!c.user_name.empty())
            fail(*ce.file, kd::field_path(ce.path, "user"),
                 "context \"" + c.context + "\" names user \"" + c.user_name +
                     "\", which does not exist (users: " + joined(names(users)) + ")");
        return c;  // anonymous
    }
    const Entry& u = us->second;
    const std::string uwho = "user " + c.user_name;
    c.token = string_field(*u.file, u.body, u.path, "token");
    c.token_file = resolve(*u.file, string_field(*u.file, u.body, u.path, "tokenFile"));
    c.username = string_field(*u.file, u.body, u.path, "username");
    c.password = string_field(*u.file, u.body, u.path, "password");
    c.tls.cert_pem = pem_field(*u.file, u.body, u.path, "client-certificate", net::certificate_problem, uwho);
    c.tls.key_pem = pem_field(*u.file, u.body, u.path, "client-key", net::private_key_problem, uwho);
    if (c.tls.cert_pem.empty() != c.tls.key_pem.empty())
        fail(*u.file, u.path,
             "a client " + std::string(c.tls.cert_pem.empty() ? "key" : "certificate") + " without its " +
                 (c.tls.cert_pem.empty() ? "certificate" : "key") + " (" + uwho + ")");
    if (std::string bad = net::key_pair_problem(c.tls.cert_pem, c.tls.key_pem); !bad.empty())
        fail(*u.file, kd::field_path(u.path, "client-key"), bad + " (" + uwho + ")");
    if (member(*u.file, u.body, u.path, "auth-provider"))
        fail(*u.file, kd::field_path(u.path, "auth-provider"), "auth-provider plugins are not supported (" + uwho + ")",
             "use an exec credential plugin, as current kubectl and cloud CLIs do");
    read_exec(*u.file, u.body, u.path, "kubeconfig " + u.file->path + ", " + uwho, c);
    return c;
}

std::vector<std::string> kubeconfig_files(const ConnectionOptions& options, std::string& chosen_by) {
    if (!options.kubeconfig.empty()) {
        chosen_by = "--kubeconfig";
        return {options.kubeconfig};
    }
    if (!options.profile_kubeconfig.empty()) {
        chosen_by = "clientConnection.kubeconfig";
        return {options.profile_kubeconfig};
    }
    if (const char* env = std::getenv("KUBECONFIG"); env && *env) {
        chosen_by = "$KUBECONFIG";
        std::vector<std::string> files;
        std::string list = env;
        size_t start = 0;
        while (start <= list.size()) {
            size_t end = list.find(':', start);
            std::string p = list.substr(start, end == std::string::npos ? std::string::npos : end - start);
            std::error_code ec;
            if (!p.empty() && fs::exists(p, ec)) files.push_back(p);  // kubectl skips missing entries
            if (end == std::string::npos) break;
            start = end + 1;
        }
        if (!files.empty()) return files;
    }
    if (const char* home = std::getenv("HOME"); home && *home) {
        std::string p = std::string(home) + "/.kube/config";
        std::error_code ec;
        if (fs::exists(p, ec)) {
            chosen_by = "~/.kube/config";
            return {p};
        }
    }
    chosen_by.clear();
    return {};
}

Connection in_cluster_connection(const std::string& dir) {
    const char* host = std::getenv("KUBERNETES_SERVICE_HOST");
    const char* port = std::getenv("KUBERNETES_SERVICE_PORT");
    if (!host || !*host || !port || !*port)
        throw Error("in-cluster configuration",
                    "no kubeconfig was found (--kubeconfig, clientConnection.kubeconfig, $KUBECONFIG, "
                    "~/.kube/config) and this is not a pod (KUBERNETES_SERVICE_HOST/PORT are not set)",
                    "give --kubeconfig FILE");
    Connection c;
    c.in_cluster = true;
    std::string h = host;
    if (h.find(':') != std::string::npos) h = "[" + h + "]";  // an IPv6 address
    c.server = "https://" + h + ":" + port;
    c.token_file = dir + "/token";
    c.tls.ca_pem = read_small_file(dir + "/ca.crt", kMaxKubeconfigBytes, "the service account's ca.crt");
    if (std::string bad = net::certificate_problem(c.tls.ca_pem); !bad.empty()) throw Error(dir + "/ca.crt", bad);
    c.tls.use_system_store = false;
    check_input_file(c.token_file, "the service account token");
    std::error_code ec;
    if (fs::exists(dir + "/namespace", ec)) {
        c.namespace_ = read_small_file(dir + "/namespace", 4096, "the service account's namespace");
        while (!c.namespace_.empty() && (c.namespace_.back() == '\n' || c.namespace_.back() == ' '))
            c.namespace_.pop_back();
    }
    c.source = "in-cluster service account (" + dir + ")";
    return c;
}

Connection load_connection(const ConnectionOptions& options) {
    std::string chosen_by;
    std::vector<std::string> files = kubeconfig_files(options, chosen_by);
    if (files.empty()) {
        Connection c = in_cluster_connection();
        if (!options.context.empty())
            throw Error("--context " + options.context, "there is no kubeconfig to choose a context from",
                        "give --kubeconfig FILE too");
        return c;
    }
    for (const auto& f : files) check_input_file(f, "the kubeconfig (from " + chosen_by + ")");
    return read_kubeconfig(files, options.context);
}

}  // namespace kd::core::kube
