// The schema facts the tests check objects against (tests/data/crd) are still those of
// Koordinator's CRDs: kdesched-crd-facts run on the real files gives the committed text.
#include "crd_facts.hpp"
#include "reference_data.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

namespace {

std::string committed(const std::string& name) {
    std::ifstream in(std::string(KD_CRD_FACTS_DIR) + "/" + name);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

TEST_CASE("the committed CRD facts match Koordinator's CRDs", "[reference]") {
    auto data = koordinator_data("tests/data/crd/*.facts against Koordinator's CRDs");
    if (!data) return;
    for (auto [crd, facts] : {std::pair{"scheduling.koordinator.sh_podmigrationjobs.yaml", "podmigrationjobs"},
                              std::pair{"scheduling.koordinator.sh_reservations.yaml", "reservations"},
                              std::pair{"slo.koordinator.sh_nodemetrics.yaml", "nodemetrics"}}) {
        INFO(crd << " (regenerate with: kdesched-crd-facts " << *data << "/crds/" << crd
                 << " v1alpha1 > tests/data/crd/" << facts << ".v1alpha1.facts)");
        std::string generated = kd::tools::crd_facts(YAML::LoadFile(*data + "/crds/" + crd), "v1alpha1", crd);
        CHECK(generated == committed(std::string(facts) + ".v1alpha1.facts"));
    }
}
