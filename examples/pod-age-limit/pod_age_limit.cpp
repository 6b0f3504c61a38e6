// The library's one export: the module holding PodAgeLimit.
#include "pod_age_limit.hpp"

KDESCHED_PLUGIN(example::PodAgeLimit)
