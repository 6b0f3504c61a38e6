// The explain table `simulate --explain` prints and /debug/explain serves: one line per pod, the
// last word wins, an evicted pod has none, a pod object's address reused by another pod is not
// mistaken for it, and the text and JSON forms.
#include "runtime/explain_table.hpp"

#include <catch2/catch.hpp>
#include <kdesched/testing.hpp>

using kd::core::EvictionRecord;
using kd::core::ExplainCycle;
using kd::core::ExplainEntry;
using kd::core::ExplainTable;

namespace {

struct Pods {
    kd::testing::SnapshotBuilder b;
    const kd_snapshot* snap;
    Pods() {
        b.pod("shop", "a");
        b.pod("shop", "b");
        b.pod("kube-system", "c");
        snap = b.build();
    }
    const kd_pod& operator[](size_t i) const { return *snap->pods[i]; }
};

EvictionRecord record(const kd_pod& pod, kd_evict_code code, std::string_view by = "", std::string_view detail = "") {
    EvictionRecord r;
    r.profile = "p";
    r.requested_by = "LowNodeLoad";
    r.pod = &pod;
    r.code = code;
    r.decided_by = by;
    r.detail = detail;
    return r;
}

}  // namespace

TEST_CASE("explain table: one line per pod in first-seen order, the last word wins, evicted pods leave") {
    Pods pods;
    ExplainTable t;
    t.record_rejection(pods[0], "DefaultEvictor", "DaemonSetPod");
    t.record_report("LowNodeLoad", "pod", "shop/b", "skipped", "NotOnHotNode");
    t.record(record(pods[2], KD_EVICT_LIMIT_NODE));
    t.record_rejection(pods[1], "MigrationController", "MaxMigratingPerNode");  // b's last word
    t.record_report("LowNodeLoad", "node", "n1", "pool", "default");            // not about a pod
    CHECK(t.rows() == std::vector<ExplainEntry>{{"shop/a", "filtered", "DefaultEvictor", "DaemonSetPod"},
                                                {"shop/b", "filtered", "MigrationController", "MaxMigratingPerNode"},
                                                {"kube-system/c", "refused", "LowNodeLoad", "limit-node"}});
    t.record(record(pods[0], KD_EVICT_ACCEPTED, "MigrationController"));
    t.record(record(pods[1], KD_EVICT_DRY_RUN));
    CHECK(t.rows() == std::vector<ExplainEntry>{{"kube-system/c", "refused", "LowNodeLoad", "limit-node"}});
    // Asked about again after its eviction: a new line, last.
    t.record(record(pods[0], KD_EVICT_FAILED, "MigrationController", "the PodMigrationJob could not be created"));
    CHECK(t.rows().back() ==
          ExplainEntry{"shop/a", "refused", "MigrationController", "the PodMigrationJob could not be created"});
    CHECK(t.rows().size() == 2);
    t.clear();
    CHECK(t.empty());
    CHECK(t.rows().empty());
}

TEST_CASE("explain table: another pod at the address of one that was noted is a pod of its own") {
    kd::testing::SnapshotBuilder first;
    first.pod("shop", "old");
    const kd_snapshot* one = first.build();
    ExplainTable t;
    t.record_rejection(*one->pods[0], "F", "R1");
    // The same kd_pod object now describes another pod (the model reused the slot).
    kd::testing::SnapshotBuilder second;
    second.pod("shop", "new");
    const kd_snapshot* two = second.build();
    kd_pod reused = *one->pods[0];
    kd_pod* slot = const_cast<kd_pod*>(one->pods[0]);
    *slot = *two->pods[0];
    t.record_rejection(*slot, "F", "R2");
    *slot = reused;
    CHECK(t.rows() ==
          std::vector<ExplainEntry>{{"shop/old", "filtered", "F", "R1"}, {"shop/new", "filtered", "F", "R2"}});
}

TEST_CASE("explain table: the JSON and text of a cycle, all lines or one pod's") {
    ExplainCycle c{3,
                   1767225600000,
                   {{"shop/a", "filtered", "DefaultEvictor", "DaemonSetPod"},
                    {"shop/bb", "refused", "MigrationController", "MaxMigratingPerNode"}}};
    CHECK(kd::core::explain_json(c) ==
          R"({"cycle":3,"time":"2026-01-01T00:00:00Z","explain":[{"pod":"shop/a","stage":"filtered",)"
          R"("plugin":"DefaultEvictor","reason":"DaemonSetPod"},{"pod":"shop/bb","stage":"refused",)"
          R"("plugin":"MigrationController","reason":"MaxMigratingPerNode"}]})"
          "\n");
    CHECK(kd::core::explain_json(c, "shop/bb").find(R"("pod":"shop/bb","explain":[{"pod":"shop/bb")") !=
          std::string::npos);
    CHECK(kd::core::explain_text(c) ==
          "cycle 3 at 2026-01-01T00:00:00Z: 2 pod(s) considered and not evicted\n"
          "  shop/a   filtered  DefaultEvictor       DaemonSetPod\n"
          "  shop/bb  refused   MigrationController  MaxMigratingPerNode\n");
    CHECK(kd::core::explain_text(c, "shop/none") ==
          "cycle 3 at 2026-01-01T00:00:00Z: 0 pod(s) considered and not evicted named shop/none\n");
    CHECK(kd::core::explain_text(ExplainCycle{}) == "no cycle has run yet\n");
}
