// `kdesched version`: the binary's version and the plugin API it offers.
#include "cli/subcommand.hpp"
#include "loader/plugin_catalog.hpp"

#include <iostream>

namespace kd::cli {

namespace {

const SubcommandRegistration version_registration({70, [](CLI::App& app, CommonOptions&) -> SubcommandRun {
                                                       app.add_subcommand(
                                                           "version",
                                                           "Print the kdesched version and its plugin API version");
                                                       return [] {
                                                           std::cout
                                                               << "kdesched " << KDESCHED_VERSION << " (plugin API "
                                                               << core::version_text(core::host_api_version()) << ")\n";
                                                           return int(kOk);
                                                       };
                                                   }});

}  // namespace

}  // namespace kd::cli
