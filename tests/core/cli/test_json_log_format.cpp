// --log-format json: a plugin line's [profile/plugin] prefix and trailing klog-style key=value
// pairs become fields of their own; anything else stays in "msg", and each line is one JSON object.
#include "cli/json_log_format.hpp"

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>
#include <catch2/catch.hpp>

#include <sstream>

using kd::cli::LogParts;
using kd::cli::split_log_message;

using Fields = std::vector<std::pair<std::string, std::string>>;

TEST_CASE("json logs: fields leave the message") {
    LogParts p = split_log_message(
        "Evicted pod in dry run mode pod=shop/web-1 reason=\"too old\" strategy=PodLifeTime "
        "node=node-1");
    CHECK(p.msg == "Evicted pod in dry run mode");
    CHECK(p.fields ==
          Fields{{"pod", "shop/web-1"}, {"reason", "too old"}, {"strategy", "PodLifeTime"}, {"node", "node-1"}});
    CHECK(p.profile.empty());

    p = split_log_message(
        "[kdesched-default/LowNodeLoad] No node is underutilized, nothing to do here nodePool=\"default\"");
    CHECK(p.profile == "kdesched-default");
    CHECK(p.plugin == "LowNodeLoad");
    CHECK(p.msg == "No node is underutilized, nothing to do here");
    CHECK(p.fields == Fields{{"nodePool", "default"}});

    p = split_log_message("[p/MigrationController] Pod picker failed node=\"n1\" reason=\"said \\\"no\\\"\"");
    CHECK(p.fields == Fields{{"node", "n1"}, {"reason", "said \"no\""}});
}

TEST_CASE("json logs: a message without trailing pairs, or with ours among them, stays whole") {
    CHECK(split_log_message("cluster synced: 4 nodes, 17 pods").msg == "cluster synced: 4 nodes, 17 pods");
    CHECK(split_log_message("cluster synced: 4 nodes, 17 pods").fields.empty());
    // a pair in the middle is prose
    auto p = split_log_message("set a=1 then stopped");
    CHECK(p.msg == "set a=1 then stopped");
    CHECK(p.fields.empty());
    // "msg" and "level" are the line's own keys; a repeated key is not a field set
    CHECK(split_log_message("x msg=hello").fields.empty());
    CHECK(split_log_message("x msg=hello").msg == "x msg=hello");
    // a key twice: only the pairs after the first one are fields
    CHECK(split_log_message("x a=1 a=2").msg == "x a=1");
    CHECK(split_log_message("x a=1 a=2").fields == Fields{{"a", "2"}});
    CHECK(split_log_message("x a=\"unclosed").fields.empty());
    CHECK(split_log_message("[not a prefix").msg == "[not a prefix");
}

TEST_CASE("json logs: --log-format json is found on the command line") {
    using kd::cli::asks_json_logs;
    CHECK(asks_json_logs({"kdesched", "run", "--log-format", "json"}));
    CHECK(asks_json_logs({"kdesched", "run", "--log-format=json"}));
    CHECK_FALSE(asks_json_logs({"kdesched", "run", "--log-format", "text"}));
    CHECK_FALSE(asks_json_logs({"kdesched", "run", "--log-format"}));
}

TEST_CASE("json logs: one object per line, escaped") {
    std::ostringstream out;
    auto logger = std::make_shared<spdlog::logger>("t", std::make_shared<spdlog::sinks::ostream_sink_mt>(out));
    spdlog::set_default_logger(logger);
    kd::cli::use_json_log_format();
    spdlog::warn("[p/X] a \"quoted\"\nline pod=ns/a");
    std::string line = out.str();
    CHECK_THAT(line, Catch::Matches(R"(\{"ts":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z","level":"warning",)"
                                    R"("msg":"a \\"quoted\\"\\nline","profile":"p","plugin":"X","pod":"ns/a"\}\n)"));
}
