#include "cluster/decode/kinds.hpp"

namespace kd::core::decode {

std::string_view item_kind_of_list(std::string_view list_kind) {
    if (!is_list_kind(list_kind)) return "";
    return list_kind.substr(0, list_kind.size() - 4);
}

}  // namespace kd::core::decode
