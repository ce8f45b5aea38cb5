// One character's agents of a mixed crowd, gathered into contiguous arrays.
#include "throng/crowd/character_gather.h"

namespace throng {

bool CharacterGatherJob::validate() const {
  const size_t n = characters.size();
  return count != nullptr && placements.size() == n && playback.size() == n &&
         (tints.empty() || tints.size() == n) && out_placements.size() >= n &&
         out_playback.size() >= n && out_agents.size() >= n &&
         (tints.empty() || out_tints.size() >= n) && (variants.empty() || variants.size() == n) &&
         (variants.empty() || out_variants.size() >= n);
}

bool CharacterGatherJob::run() const {
  if (!validate()) return false;
  uint32_t n = 0;
  for (size_t a = 0; a < characters.size(); ++a) {
    if (characters[a] != character) continue;
    out_placements[n] = placements[a];
    out_playback[n] = playback[a];
    if (!tints.empty()) out_tints[n] = tints[a];
    if (!variants.empty()) out_variants[n] = variants[a];
    out_agents[n] = static_cast<uint32_t>(a);
    ++n;
  }
  *count = n;
  return true;
}

}  // namespace throng
