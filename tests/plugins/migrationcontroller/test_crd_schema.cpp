// The objects MigrationController writes fit Koordinator's CRDs (their schema facts, tests/data/crd):
// the reconcile, evict and arbitration tests check every create and update they see through
// check_against_crds; here, that the check itself catches what the API server would refuse or prune.
#include "reservation.hpp"
#include "test_util.hpp"

#include <algorithm>

using namespace mc_test;

TEST_CASE("crd schema: the check refuses wrong types, missing required fields and pruned fields", "[crd]") {
    const CrdSchema pmj(std::string(KD_CRD_FACTS_DIR) + "/podmigrationjobs.v1alpha1.facts");
    CHECK(pmj.kind() == "PodMigrationJob");
    auto good = parse(JobJson("default", "p").json());
    CHECK(pmj.validate(good) == std::vector<std::string>{});

    auto bad = parse(R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"PodMigrationJob",
        "metadata":{"name":"x"},
        "spec":{"podRef":{"namespace":"default","name":"p"},"paused":"yes","speed":3},
        "status":{"phase":"Running","conditions":[{"type":"Eviction"}]}})");
    auto errors = pmj.validate(bad);
    CHECK(std::find(errors.begin(), errors.end(), ".spec.paused: must be of type boolean") != errors.end());
    CHECK(std::find(errors.begin(), errors.end(), ".spec.speed: unknown field (the API server would prune it)") !=
          errors.end());
    CHECK(std::find(errors.begin(), errors.end(), ".status.conditions[0]: required field status missing") !=
          errors.end());
}

TEST_CASE("crd schema: a Reservation built for a running pod fits the Reservation CRD", "[crd]") {
    const CrdSchema reservation(std::string(KD_CRD_FACTS_DIR) + "/reservations.v1alpha1.facts");
    SnapshotBuilder b;
    base_cluster(b);
    web_pod(b, "p").tolerate("dedicated", "Equal", "web", "NoSchedule").require_node("zone", "In", {"a", "b"});
    const kd_snapshot* s = b.build();
    auto pod = kd::Snapshot(s).find_pod("default", "p");
    REQUIRE(pod);
    kd::plugins::migrationcontroller::Job job(parse(JobJson("default", "p").json()));
    auto built = kd::plugins::migrationcontroller::build_reservation(job, *pod, kT0);
    auto doc = parse(built.json);
    CHECK(reservation.validate(doc) == std::vector<std::string>{});
    CHECK(str(doc, "/spec/owners/0/controller/kind") == "ReplicaSet");
}
