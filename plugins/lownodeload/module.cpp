// The library's one exported symbol, kept apart from the plugin logic (see low_node_load.hpp).
#include "low_node_load.hpp"

KDESCHED_PLUGIN(kd::plugins::lownodeload::LowNodeLoad)
