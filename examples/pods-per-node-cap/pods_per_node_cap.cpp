// The library's one export: the module holding PodsPerNodeCap.
#include "pods_per_node_cap.hpp"

KDESCHED_PLUGIN(example::PodsPerNodeCap)
