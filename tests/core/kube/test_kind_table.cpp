// The kind table (cluster/kind_table.hpp) and what reads it: the model's kinds, the decoders'
// and the API resources agree row by row.
#include "cluster/decode/kinds.hpp"
#include "kube/client/resources.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>

using namespace kd::core;

TEST_CASE("kind table: every model kind's name, API resource and draft kind come from its one row") {
    std::set<std::string> names, plurals;
    for (ObjectKind k : kAllObjectKinds) {
        const KindInfo& row = kind_info(k);
        CHECK(row.kind == k);
        names.insert(std::string(row.name));
        plurals.insert(std::string(row.plural));
        CHECK(object_kind(row.name) == k);
        const kube::ApiResource& r = kube::resource_of(k);
        CHECK(r.kind == row.name);
        CHECK(r.resource == row.plural);
        CHECK(r.group_version() == row.api_version);
        CHECK(decode::classify_kind(row.name) == row.draft);
    }
    CHECK(names.size() == kAllObjectKinds.size());
    CHECK(plurals.size() == kAllObjectKinds.size());
    CHECK_FALSE(object_kind("ConfigMap"));
    CHECK(decode::classify_kind("ConfigMap") == decode::Kind::other);
    CHECK_FALSE(kube::resource_by_kind("ConfigMap"));
}

TEST_CASE("kind table: the reflectors list every kind but Secrets, in the model's order, at their paths") {
    std::string order;
    for (const auto& r : kube::watched_resources()) order += std::string(r.kind) + " ";
    CHECK(order ==
          "Node Pod NodeMetric ReplicaSet Deployment StatefulSet Job DaemonSet ReplicationController "
          "PodDisruptionBudget Namespace PriorityClass PersistentVolumeClaim PodMigrationJob Reservation ");
    CHECK(kube::resource_of(ObjectKind::priority_class).collection_path("ignored") ==
          "/apis/scheduling.k8s.io/v1/priorityclasses");
    CHECK(kube::resource_of(ObjectKind::pvc).collection_path("shop") ==
          "/api/v1/namespaces/shop/persistentvolumeclaims");
    CHECK(kube::resource_of(ObjectKind::pdb).collection_path("shop") ==
          "/apis/policy/v1/namespaces/shop/poddisruptionbudgets");
    CHECK(kube::resource_of(ObjectKind::node_metric).collection_path("ignored") ==
          "/apis/slo.koordinator.sh/v1alpha1/nodemetrics");
    CHECK(kube::resource_of(ObjectKind::secret).object_path("shop", "token") ==
          "/api/v1/namespaces/shop/secrets/token");
    CHECK(kube::resource_by_kind("Secret")->needed_by == "the Pod Picker's secretKeyRef headers");
    // Only the custom resources are served as JSON only and have their apiVersion checked.
    CHECK(kube::resource_of(ObjectKind::reservation).custom);
    CHECK_FALSE(kube::resource_of(ObjectKind::pod).custom);
    CHECK(decode::required_api_version(decode::classify_kind("NodeMetric")) == "slo.koordinator.sh/v1alpha1");
    CHECK(decode::required_api_version(decode::classify_kind("PodMigrationJob")) ==
          "scheduling.koordinator.sh/v1alpha1");
    CHECK(decode::required_api_version(decode::classify_kind("Deployment")).empty());
}
