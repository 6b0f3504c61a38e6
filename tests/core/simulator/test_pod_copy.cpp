// The simulator's pod copy keeps the bound lists (spec.topologySpreadConstraints): a workload
// controller's replacement pod has its template's constraints, and shares its spec.
#include "cluster/cluster_model.hpp"
#include "cluster/decode/api_objects.hpp"
#include "simulator/pod_copy.hpp"
#include "spread_text.hpp"

#include <catch2/catch.hpp>

#include <memory>
#include <string>

using namespace kd::core;

TEST_CASE("a pod copy's replacement keeps the template's topology spread constraints", "[simulator][bound-list]") {
    ClusterModel m;
    std::string text =
        R"({"apiVersion":"v1","kind":"Pod","metadata":{"uid":"p1","namespace":"shop","name":"web-1"},"spec":{"nodeName":"n1",
 "topologySpreadConstraints":[
  {"maxSkew":1,"topologyKey":"topology.kubernetes.io/zone","whenUnsatisfiable":"DoNotSchedule",
   "labelSelector":{"matchLabels":{"app":"web","tier":"front"},
    "matchExpressions":[{"key":"track","operator":"In","values":["stable","canary"]},{"key":"legacy","operator":"DoesNotExist"}]},
   "minDomains":2,"nodeAffinityPolicy":"Ignore","nodeTaintsPolicy":"Honor","matchLabelKeys":["pod-template-hash"]},
  {"maxSkew":3,"topologyKey":"kubernetes.io/hostname","whenUnsatisfiable":"ScheduleAnyway"}]}})";
    REQUIRE_FALSE(decode_api_objects(text.data(), text.size(), "test", "", "", m));
    auto copy = std::make_unique<PodCopy>(*m.pod_by_uid("p1"));
    const PodDraft& d = copy->replacement("web-2", "p2", "n2", 1);
    CHECK(kd::test::spread_text(d.bound_spec) == kd::test::kTwoSpreadConstraints);
    m.on_pod(d);
    CHECK(m.pod_by_uid("p2")->spec == m.pod_by_uid("p1")->spec);
    copy.reset();  // the model's copy does not depend on the pod copy's
    CHECK(kd::test::spread_text(*m.pod_by_uid("p2")->spec) == kd::test::kTwoSpreadConstraints);
}
