// A bound list of structs in the model (spec.topologySpreadConstraints, API 1.5): interned into
// the pools, part of the spec's content key (equal lists share a kd_pod_spec, different ones do
// not) and of the model digest; a plugin on an older host sees none.
#include "cluster/cluster_model.hpp"
#include "cluster/decode/api_objects.hpp"
#include "cluster/model_digest.hpp"
#include "spread_text.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace kd::core;
using kd::test::kTwoSpreadConstraints;
using kd::test::spread_text;

namespace {

const std::string kSpreadJson = R"("topologySpreadConstraints":[
  {"maxSkew":1,"topologyKey":"topology.kubernetes.io/zone","whenUnsatisfiable":"DoNotSchedule",
   "labelSelector":{"matchLabels":{"app":"web","tier":"front"},
    "matchExpressions":[{"key":"track","operator":"In","values":["stable","canary"]},{"key":"legacy","operator":"DoesNotExist"}]},
   "minDomains":2,"nodeAffinityPolicy":"Ignore","nodeTaintsPolicy":"Honor","matchLabelKeys":["pod-template-hash"]},
  {"maxSkew":3,"topologyKey":"kubernetes.io/hostname","whenUnsatisfiable":"ScheduleAnyway"}])";

std::string spread_pod(const std::string& uid, const std::string& spread) {
    return R"({"apiVersion":"v1","kind":"Pod","metadata":{"uid":")" + uid + R"(","namespace":"shop","name":")" + uid +
           R"(","labels":{"app":"web"}},"spec":{"nodeName":"n1",)" + spread +
           R"(,"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]}})";
}

void feed_spread(ClusterModel& m, const std::vector<std::string>& objects) {
    for (std::string text : objects) REQUIRE_FALSE(decode_api_objects(text.data(), text.size(), "test", "", "", m));
}

std::string spread_replaced(std::string s, const std::string& from, const std::string& to) {
    auto at = s.find(from);
    REQUIRE(at != std::string::npos);
    return s.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("topology spread constraints are interned into the model and shared with the spec", "[model][bound-list]") {
    ClusterModel m;
    const std::string other =
        spread_replaced(kSpreadJson, R"("matchLabelKeys":["pod-template-hash"])", R"("matchLabelKeys":[])");
    feed_spread(m, {spread_pod("p1", kSpreadJson), spread_pod("p2", kSpreadJson), spread_pod("p3", other),
                    spread_pod("p4", R"("priority":0)")});
    const kd_pod* p1 = m.pod_by_uid("p1");
    REQUIRE(p1);
    CHECK(spread_text(*p1->spec) == kTwoSpreadConstraints);
    CHECK(kd::Pod(p1).topology_spread_constraints().size() == 2);
    // Equal constraints: one spec; a difference deep in one element: another.
    CHECK(m.pod_by_uid("p2")->spec == p1->spec);
    CHECK(m.pod_by_uid("p3")->spec != p1->spec);
    CHECK(kd::Pod(m.pod_by_uid("p3")).topology_spread_constraints()[0].match_label_key_count() == 0);
    CHECK(kd::Pod(m.pod_by_uid("p4")).topology_spread_constraints().empty());
    CHECK(m.pod_by_uid("p4")->spec != p1->spec);

    // A plugin on a host of API 1.4 (a kd_pod_spec without the 1.5 members) sees none.
    kd_pod_spec old_spec = *p1->spec;
    old_spec.struct_size = offsetof(kd_pod_spec, topology_spread_constraints);
    kd_pod old = *p1;
    old.spec = &old_spec;
    CHECK(kd::Pod(&old).topology_spread_constraints().empty());
}

TEST_CASE("the model digest changes with any field of a topology spread constraint", "[model][digest][bound-list]") {
    auto spread_digest = [](const std::string& spread) {
        ClusterModel m;
        feed_spread(m, {spread_pod("p1", spread)});
        return digest_model(m).at("Pod");
    };
    const auto base = spread_digest(kSpreadJson);
    CHECK(spread_digest(kSpreadJson) == base);
    for (auto [from, to] : std::vector<std::pair<std::string, std::string>>{
             {R"("maxSkew":3)", R"("maxSkew":4)"},
             {R"("minDomains":2)", R"("minDomains":3)"},
             {R"("DoesNotExist")", R"("Exists")"},
             {R"("canary")", R"("beta")"},
             {R"("tier":"front")", R"("tier":"back")"},
             {R"("nodeTaintsPolicy":"Honor")", R"("nodeTaintsPolicy":"Ignore")"},
             {R"("pod-template-hash")", R"("version")"},
             {R"("kubernetes.io/hostname")", R"("kubernetes.io/os")"}})
        CHECK(spread_digest(spread_replaced(kSpreadJson, from, to)) != base);
    // No selector is not the same as an empty one.
    CHECK(spread_digest(spread_replaced(kSpreadJson, R"("whenUnsatisfiable":"ScheduleAnyway")",
                                        R"("whenUnsatisfiable":"ScheduleAnyway","labelSelector":{})")) != base);
}

namespace {

const std::string kAffinityJson = R"("affinity":{
  "nodeAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[
    {"weight":80,"preference":{"matchExpressions":[{"key":"disk","operator":"In","values":["ssd"]}]}}]},
  "podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[
    {"labelSelector":{"matchLabels":{"app":"web"}},"topologyKey":"kubernetes.io/hostname","namespaces":["shop"]}],
   "preferredDuringSchedulingIgnoredDuringExecution":[
    {"weight":100,"podAffinityTerm":{"labelSelector":{"matchLabels":{"app":"web"}},"topologyKey":"zone"}}]}})";

std::string affinity_pod(const std::string& uid, const std::string& affinity, const std::string& image = "nginx") {
    return R"({"apiVersion":"v1","kind":"Pod","metadata":{"uid":")" + uid + R"(","namespace":"shop","name":")" + uid +
           R"(","labels":{"app":"web"}},"spec":{"nodeName":"n1",)" + affinity +
           R"(,"containers":[{"name":"c","image":")" + image + R"(","resources":{"requests":{"cpu":"1"}}}]}})";
}

}  // namespace

TEST_CASE("API 1.6 lists (affinity terms, images) are interned and part of the spec's content key",
          "[model][bound-list]") {
    ClusterModel m;
    feed_spread(m, {affinity_pod("a1", kAffinityJson), affinity_pod("a2", kAffinityJson),
                    affinity_pod("a3", kAffinityJson, "nginx:2"),
                    affinity_pod("a4", spread_replaced(kAffinityJson, R"("weight":100)", R"("weight":99)")),
                    affinity_pod("a5", R"("priority":0)")});
    const kd_pod* a1 = m.pod_by_uid("a1");
    REQUIRE(a1);
    kd::Pod pod(a1);
    REQUIRE(pod.preferred_node_terms().size() == 1);
    CHECK(pod.preferred_node_terms()[0].weight() == 80);
    CHECK(pod.preferred_node_terms()[0].preference().expressions()[0].key() == "disk");
    REQUIRE(pod.pod_anti_affinity_terms().size() == 1);
    CHECK(pod.pod_anti_affinity_terms()[0].topology_key() == "kubernetes.io/hostname");
    CHECK(pod.pod_anti_affinity_terms()[0].namespace_(0) == "shop");
    REQUIRE(pod.preferred_pod_anti_affinity_terms().size() == 1);
    CHECK(pod.preferred_pod_anti_affinity_terms()[0].weight() == 100);
    CHECK(pod.pod_affinity_terms().empty());
    REQUIRE(pod.container_image_count() == 1);
    CHECK(pod.container_image(0) == "nginx");
    // Equal lists share one spec; another image or weight does not.
    CHECK(m.pod_by_uid("a2")->spec == a1->spec);
    CHECK(m.pod_by_uid("a3")->spec != a1->spec);
    CHECK(kd::Pod(m.pod_by_uid("a3")).container_image(0) == "nginx:2");
    CHECK(m.pod_by_uid("a4")->spec != a1->spec);
    CHECK(kd::Pod(m.pod_by_uid("a5")).preferred_node_terms().empty());

    // A plugin on a host of API 1.5 sees none of them.
    kd_pod_spec old_spec = *a1->spec;
    old_spec.struct_size = offsetof(kd_pod_spec, preferred_node_terms);
    kd_pod old = *a1;
    old.spec = &old_spec;
    CHECK(kd::Pod(&old).preferred_node_terms().empty());
    CHECK(kd::Pod(&old).pod_anti_affinity_terms().empty());
    CHECK(kd::Pod(&old).container_image_count() == 0);
}

TEST_CASE("the model digest changes with the affinity terms and images", "[model][digest][bound-list]") {
    auto affinity_digest = [](const std::string& affinity, const std::string& image = "nginx") {
        ClusterModel m;
        feed_spread(m, {affinity_pod("a1", affinity, image)});
        return digest_model(m).at("Pod");
    };
    const auto base = affinity_digest(kAffinityJson);
    CHECK(affinity_digest(kAffinityJson) == base);
    CHECK(affinity_digest(kAffinityJson, "nginx:2") != base);
    for (auto [from, to] :
         std::vector<std::pair<std::string, std::string>>{{R"("weight":80)", R"("weight":81)"},
                                                          {R"("ssd")", R"("hdd")"},
                                                          {R"("namespaces":["shop"])", R"("namespaces":["shop","x"])"},
                                                          {R"("topologyKey":"zone")", R"("topologyKey":"region")"},
                                                          {R"("podAntiAffinity")", R"("podAffinity")"}})
        CHECK(affinity_digest(spread_replaced(kAffinityJson, from, to)) != base);
}

TEST_CASE("API 1.8 lists (resource claims, PVC claim names) reach the plugin view and the digest",
          "[model][bound-list][digest]") {
    const std::string claims =
        R"("resourceClaims":[{"name":"gpu","resourceClaimName":"gpu-claim"},{"name":"nic","resourceClaimTemplateName":"nic-tpl"}],)"
        R"("volumes":[{"name":"d","persistentVolumeClaim":{"claimName":"data-1"}},{"name":"l","persistentVolumeClaim":{"claimName":"logs-1"}}])";
    ClusterModel m;
    feed_spread(m,
                {spread_pod("r1", claims), spread_pod("r2", claims),
                 spread_pod("r3", spread_replaced(claims, "data-1", "data-2")), spread_pod("r4", R"("priority":0)")});
    const kd_pod* r1 = m.pod_by_uid("r1");
    REQUIRE(r1);
    kd::Pod pod(r1);
    auto rc = pod.resource_claims();
    REQUIRE(rc);
    REQUIRE(rc->size() == 2);
    CHECK((*rc)[0].name() == "gpu");
    CHECK((*rc)[0].resource_claim_name() == "gpu-claim");
    CHECK((*rc)[1].resource_claim_template_name() == "nic-tpl");
    REQUIRE(pod.pvc_claim_count() == 2);
    CHECK(pod.pvc_claim_name(0) == "data-1");
    CHECK(pod.pvc_claim_name(1) == "logs-1");
    CHECK(pod.has_pvc());
    // Equal lists share one spec; another claim name does not.
    CHECK(m.pod_by_uid("r2")->spec == r1->spec);
    CHECK(m.pod_by_uid("r3")->spec != r1->spec);
    CHECK(kd::Pod(m.pod_by_uid("r3")).pvc_claim_name(0) == "data-2");
    REQUIRE(kd::Pod(m.pod_by_uid("r4")).resource_claims());
    CHECK(kd::Pod(m.pod_by_uid("r4")).resource_claims()->empty());

    // A plugin on a host of API 1.7 is told the claims are not known, and sees no claim names;
    // the 1.6 members are still there.
    kd_pod_spec old_spec = *r1->spec;
    old_spec.struct_size = offsetof(kd_pod_spec, resource_claims);
    kd_pod old = *r1;
    old.spec = &old_spec;
    CHECK_FALSE(kd::Pod(&old).resource_claims());
    CHECK(kd::Pod(&old).pvc_claim_count() == 0);
    CHECK(kd::Pod(&old).container_image_count() == kd::Pod(r1).container_image_count());

    auto digest = [](const std::string& spec) {
        ClusterModel d;
        feed_spread(d, {spread_pod("r1", spec)});
        return digest_model(d).at("Pod");
    };
    const auto base = digest(claims);
    CHECK(digest(claims) == base);
    CHECK(digest(spread_replaced(claims, "gpu-claim", "gpu-claim-2")) != base);
    CHECK(digest(spread_replaced(claims, "logs-1", "logs-2")) != base);
}
