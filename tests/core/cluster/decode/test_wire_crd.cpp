// The wire form plugins read (kd_snapshot.list_objects, encoded by cluster/migration_json.cpp) of
// PodMigrationJobs and Reservations fits Koordinator's CRDs, so what kdesched stores and writes back
// is what a real koord-scheduler and koord-descheduler would accept.
#include "cluster/cluster_model.hpp"
#include "cluster/decode/cluster_files.hpp"
#include "crd_schema.hpp"

#include <kdesched/view.hpp>

#include <rapidjson/document.h>

#include <catch2/catch.hpp>

using namespace kd::core;

TEST_CASE("PodMigrationJobs and Reservations listed to plugins fit the CRDs", "[decode][crd]") {
    ClusterModel model;
    load_cluster_files({std::string(KD_DECODE_DATA_DIR) + "/cluster.json"}, model);
    auto snap = model.snapshot(0);
    kd::Snapshot s(&snap->raw());
    for (const char* kind : {"PodMigrationJob", "Reservation"}) {
        std::string file = std::string(KD_SHARED_DIR) + "/koordinator-data/crds/scheduling.koordinator.sh_" +
                           (std::string(kind) == "Reservation" ? "reservations" : "podmigrationjobs") + ".yaml";
        CrdSchema schema(file, "v1alpha1");
        rapidjson::Document list;
        std::string text(s.list_objects(kind));
        list.Parse(text.c_str());
        REQUIRE(list.IsArray());
        REQUIRE(list.Size() >= 1);  // the fixture has some of each
        for (const auto& obj : list.GetArray()) {
            INFO(kind << " " << obj["metadata"]["name"].GetString());
            CHECK(std::string(obj["kind"].GetString()) == kind);
            CHECK(schema.validate(obj) == std::vector<std::string>{});
        }
    }
}
