// The library's one exported symbol, kept apart from the plugin logic (see default_evictor.hpp).
#include "default_evictor.hpp"

KDESCHED_PLUGIN(kd::plugins::defaultevictor::DefaultEvictor)
