// kdesched-crd-facts CRD.yaml VERSION: prints the compact schema facts the tests check objects
// against (tests/data/crd/*.facts). Run by hand when Koordinator's CRDs change.
#include "crd_facts.hpp"

#include <filesystem>
#include <iostream>

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: kdesched-crd-facts CRD.yaml VERSION   (e.g. scheduling.koordinator.sh_reservations.yaml "
                     "v1alpha1)\n";
        return 2;
    }
    try {
        std::cout << kd::tools::crd_facts(YAML::LoadFile(argv[1]), argv[2],
                                          std::filesystem::path(argv[1]).filename().string());
    } catch (const std::exception& e) {
        std::cerr << argv[1] << ": " << e.what() << "\n";
        return 1;
    }
    return 0;
}
