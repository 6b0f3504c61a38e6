// `kdesched validate` accepts Koordinator's shipped ConfigMap with the in-house plugins.
#include "reference_data.hpp"
#include "run_command.hpp"

#include <catch2/catch.hpp>

TEST_CASE("validate accepts Koordinator's shipped ConfigMap", "[reference]") {
    auto data = koordinator_data("`kdesched validate` on Koordinator's shipped ConfigMap");
    if (!data) return;
    auto r = run_command(quote(KDESCHED_BINARY) + " validate --config " + quote(*data + "/descheduler-config.yaml"));
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::StartsWith("OK: "));
}
