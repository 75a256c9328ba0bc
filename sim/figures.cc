// What the figures share: the paper's package sizes.
#include "figures.h"

#include <fmt/format.h>

#include <stdexcept>

#include "cli_util.h"

namespace aries::sim {

std::vector<unsigned> ParsePaperKs(const std::string& ks) {
  std::vector<unsigned> v;
  for (const std::string& s : SplitList(ks)) {
    if (s != "4" && s != "8")
      throw std::invalid_argument(fmt::format("-k {}: allowed 4, 8 (the paper's)", ks));
    v.push_back(static_cast<unsigned>(std::stoul(s)));
  }
  if (v.empty())
    throw std::invalid_argument(fmt::format("-k '{}': allowed 4, 8 (the paper's)", ks));
  return v;
}

}  // namespace aries::sim
