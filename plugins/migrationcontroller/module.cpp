// The library's one export; kept apart so the tests can compile the plugin without it.
#include "migration_controller.hpp"

KDESCHED_PLUGIN(kd::plugins::migrationcontroller::MigrationController)
