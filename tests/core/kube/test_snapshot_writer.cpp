// `kdesched snapshot`'s writer: every kind of the kind table is written, with its apiVersion and
// kind, and counted under its name — the last kinds of the table too (a writer sized for fewer
// kinds indexed past its arrays once PriorityClass and PersistentVolumeClaim were added, and the
// envtest snapshot then counted pods as Reservations); a LIST that broke off writes nothing twice.
#include "kube/client/resources.hpp"
#include "kube/watch/snapshot_writer.hpp"

#include <catch2/catch.hpp>

#include <sstream>

using namespace kd::core;
using namespace kd::core::kube;

namespace {

void list(SnapshotWriter& w, ObjectKind kind, const std::vector<std::string>& names) {
    std::vector<Change> changes;
    changes.push_back(Change::of(Change::Type::list_start, kind));
    Change items = Change::of(Change::Type::list_items, kind);
    for (const auto& n : names)
        items.add(R"({"metadata":{"name":")" + n + R"(","managedFields":[{"manager":"x"}]}})", Encoding::json);
    changes.push_back(std::move(items));
    changes.push_back(Change::of(Change::Type::list_done, kind, "7"));
    w.consume(changes);
}

}  // namespace

TEST_CASE("snapshot writer: every kind of the table is written and counted under its own name") {
    std::ostringstream out;
    SnapshotWriter w(out);
    size_t i = 0;
    for (ObjectKind kind : kAllObjectKinds) {
        std::vector<std::string> names;
        for (size_t n = 0; n <= i % 3; ++n) names.push_back(std::string(kind_name(kind)) + "-" + std::to_string(n));
        list(w, kind, names);
        ++i;
    }
    auto counts = w.finish();
    REQUIRE(counts.size() == kAllObjectKinds.size());
    i = 0;
    for (ObjectKind kind : kAllObjectKinds) {
        INFO(kind_name(kind));
        CHECK(counts.at(std::string(kind_name(kind))) == i % 3 + 1);
        const ApiResource& res = resource_of(kind);
        CHECK(out.str().find(R"({"apiVersion":")" + res.group_version() + R"(","kind":")" + std::string(res.kind) +
                             R"(","metadata":{"name":")" + std::string(kind_name(kind)) + "-0\"}}") !=
              std::string::npos);
        ++i;
    }
    CHECK(out.str().find("managedFields") == std::string::npos);
}

TEST_CASE("snapshot writer: a LIST that broke off and started again is written once") {
    std::ostringstream out;
    SnapshotWriter w(out);
    std::vector<Change> changes;
    changes.push_back(Change::of(Change::Type::list_start, ObjectKind::reservation));
    Change first = Change::of(Change::Type::list_items, ObjectKind::reservation);
    first.add(R"({"metadata":{"name":"r-1"}})", Encoding::json);
    changes.push_back(std::move(first));
    changes.push_back(Change::of(Change::Type::list_abort, ObjectKind::reservation));
    w.consume(changes);
    list(w, ObjectKind::reservation, {"r-1", "r-2"});
    auto counts = w.finish();
    CHECK(counts == std::map<std::string, size_t>{{"Reservation", 2}});
}
