// deploy/overlays/monitoring: the ServiceMonitor scrapes the Service kdesched exposes, and every
// metric its alerts and dashboard name is one the daemon registers (core/daemon/metrics.cpp, read
// as source: a renamed family fails here); the alerts are docs/operations.md's.
#include "manifests.hpp"

#include <catch2/catch.hpp>

#include <cctype>
#include <map>
#include <regex>
#include <set>
#include <string>

using kd::test::kustomize;
using kd::test::read_text;
using kd::test::rendered;
using kd::test::source_dir;

namespace {

// The series names /metrics can show: each family metrics.cpp builds, a histogram's as
// <name>_bucket, _sum and _count.
std::set<std::string> exported_series() {
    std::string source = read_text(source_dir() / "core/daemon/metrics.cpp");
    static const std::regex family(
        R"re(Build(Counter|Gauge|Histogram|Summary)\(\)\s*,\s*"([A-Za-z_:][A-Za-z0-9_:]*)")re");
    std::set<std::string> out;
    for (std::sregex_iterator it(source.begin(), source.end(), family), end; it != end; ++it) {
        std::string type = (*it)[1], name = (*it)[2];
        if (type == "Histogram" || type == "Summary") {
            for (const char* suffix : {"_bucket", "_sum", "_count"}) out.insert(name + suffix);
            if (type == "Summary") out.insert(name);
        } else {
            out.insert(name);
        }
    }
    return out;
}

size_t skip_quoted(const std::string& s, size_t i) {
    char q = s[i];
    for (++i; i < s.size() && s[i] != q; ++i)
        if (s[i] == '\\') ++i;
    return i;  // at the closing quote
}

// From the `open` at i to its matching `close`, quoted text skipped.
size_t skip_group(const std::string& s, size_t i, char open, char close) {
    int depth = 0;
    for (; i < s.size(); ++i) {
        if (s[i] == '"' || s[i] == '\'' || s[i] == '`')
            i = skip_quoted(s, i);
        else if (s[i] == open)
            ++depth;
        else if (s[i] == close && --depth == 0)
            break;
    }
    return i;
}

// The metric names a PromQL expression selects: identifiers that are neither functions (followed
// by "(") nor aggregations nor keywords, nor label names (inside {}, or the lists of by,
// without, on, ignoring, group_left, group_right), nor ranges ([5m], [$__rate_interval]).
std::set<std::string> metric_names(const std::string& expr) {
    // Aggregations may put `by (…)` between their name and "(": `sum by (le) (x)`.
    static const std::set<std::string> keywords = {
        "and",   "or",   "unless",  "bool",     "offset", "inf",          "nan",
        "sum",   "min",  "max",     "avg",      "group",  "stddev",       "stdvar",
        "count", "topk", "bottomk", "quantile", "limitk", "count_values", "limit_ratio"};
    static const std::set<std::string> label_lists = {"by", "without", "on", "ignoring", "group_left", "group_right"};
    std::set<std::string> out;
    auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':'; };
    for (size_t i = 0; i < expr.size(); ++i) {
        char c = expr[i];
        if (c == '"' || c == '\'' || c == '`') {
            i = skip_quoted(expr, i);
        } else if (c == '{') {
            i = skip_group(expr, i, '{', '}');
        } else if (c == '[') {
            i = skip_group(expr, i, '[', ']');
        } else if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
            while (i + 1 < expr.size() && (ident(expr[i + 1]) || expr[i + 1] == '.')) ++i;
        } else if (ident(c)) {
            size_t start = i;
            while (i + 1 < expr.size() && ident(expr[i + 1])) ++i;
            std::string word = expr.substr(start, i - start + 1);
            size_t next = expr.find_first_not_of(" \t\n", i + 1);
            bool call = next != std::string::npos && expr[next] == '(';
            if (label_lists.count(word)) {
                if (call) i = skip_group(expr, next, '(', ')');
            } else if (!call && !keywords.count(word)) {
                out.insert(word);
            }
        }
    }
    return out;
}

void require_exported(const std::string& where, const std::string& expr, const std::set<std::string>& exported) {
    std::set<std::string> used = metric_names(expr);
    INFO(where << ": " << expr);
    CHECK_FALSE(used.empty());
    for (const auto& name : used) {
        INFO("metric " << name << " is not one core/daemon/metrics.cpp registers");
        CHECK(exported.count(name));
    }
}

// alert name → expression, from a PrometheusRule's spec or a rule file's top level (`groups:`).
std::map<std::string, std::string> alerts(const YAML::Node& groups) {
    std::map<std::string, std::string> out;
    for (const auto& g : groups)
        for (const auto& r : g["rules"])
            if (r["alert"]) out[r["alert"].Scalar()] = r["expr"].Scalar();
    return out;
}

// The rule file docs/operations.md shows (its ```yaml block that starts with `groups:`).
YAML::Node documented_rules() {
    std::string doc = read_text(source_dir() / "docs/operations.md");
    size_t start = doc.find("```yaml\ngroups:");
    REQUIRE(start != std::string::npos);
    start += 8;
    return YAML::Load(doc.substr(start, doc.find("```", start) - start));
}

}  // namespace

TEST_CASE("monitoring: the metric-name reader sees selectors, not functions, labels or ranges") {
    CHECK(metric_names(R"(histogram_quantile(0.99, sum by (le) (rate(a_bucket{job="$job", x=~"y|z"}[5m]))))") ==
          std::set<std::string>{"a_bucket"});
    CHECK(metric_names("absent(b == 1) or c unless on(instance) d{kind=\"Pod\"} > 0.05") ==
          std::set<std::string>{"b", "c", "d"});
    CHECK(exported_series().count("descheduler_loop_duration_seconds_bucket"));
    CHECK(exported_series().count("leader_election_master_status"));
    CHECK_FALSE(exported_series().count("descheduler_loop_duration_seconds"));  // a histogram's own name is no series
}

TEST_CASE("monitoring: the ServiceMonitor scrapes the metrics Service's port at /metrics") {
    auto docs = kustomize("overlays/monitoring");
    if (!docs) return;
    YAML::Node sm = rendered(*docs, "ServiceMonitor");
    YAML::Node service = rendered(*docs, "Service");
    CHECK(sm["metadata"]["namespace"].Scalar() == service["metadata"]["namespace"].Scalar());
    CHECK_FALSE(sm["spec"]["namespaceSelector"]);  // its own namespace, wherever an overlay puts both
    YAML::Node wanted = sm["spec"]["selector"]["matchLabels"];
    REQUIRE(wanted.size() > 0);
    for (const auto& kv : wanted) {
        INFO("label " << kv.first.Scalar());
        CHECK(service["metadata"]["labels"][kv.first.Scalar()].Scalar() == kv.second.Scalar());
    }
    REQUIRE(sm["spec"]["endpoints"].size() == 1);
    CHECK(sm["spec"]["endpoints"][0]["port"].Scalar() == service["spec"]["ports"][0]["name"].Scalar());
    CHECK(sm["spec"]["endpoints"][0]["path"].Scalar() == "/metrics");
}

TEST_CASE("monitoring: the PrometheusRule holds docs/operations.md's alerts, on metrics kdesched exports") {
    auto docs = kustomize("overlays/monitoring");
    if (!docs) return;
    std::map<std::string, std::string> rules = alerts(rendered(*docs, "PrometheusRule")["spec"]["groups"]);
    CHECK(rules == alerts(documented_rules()["groups"]));
    std::set<std::string> exported = exported_series();
    for (const auto& [name, expr] : rules) require_exported("alert " + name, expr, exported);
    // No leader must fire with nothing scraped too: `sum(...) == 0` over no series never does.
    CHECK_THAT(rules["KdeschedNoLeader"], Catch::StartsWith("absent("));
}

TEST_CASE("monitoring: the Grafana dashboard's panels query only metrics kdesched exports") {
    auto docs = kustomize("overlays/monitoring");
    if (!docs) return;
    YAML::Node cm = rendered(*docs, "ConfigMap", "kdesched-dashboard");
    REQUIRE(cm.IsMap());
    CHECK(cm["metadata"]["labels"]["grafana_dashboard"].Scalar() == "1");
    YAML::Node dashboard = YAML::Load(cm["data"]["kdesched-dashboard.json"].Scalar());  // JSON is YAML
    std::set<std::string> exported = exported_series(), titles;
    for (const auto& panel : dashboard["panels"]) {
        std::string title = panel["title"].Scalar();
        titles.insert(title);
        REQUIRE(panel["targets"].size() > 0);
        for (const auto& t : panel["targets"]) require_exported("panel " + title, t["expr"].Scalar(), exported);
    }
    for (const char* wanted :
         {"Evictions by strategy", "Evictions by node", "Evictions by namespace", "PodMigrationJobs by phase",
          "API errors", "Relists (410 Gone)", "Cycle time", "Resident memory"}) {
        INFO(wanted);
        CHECK(titles.count(wanted));
    }
}
