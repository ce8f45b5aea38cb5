// The settings a CrowdRenderer's passes read each frame (those a viewer may change between
// frames), and the tint an agent is drawn with under them.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include <glm/glm.hpp>

#include "throng/crowd/clip_set.h"
#include "throng/render/crowd_renderer.h"
#include "throng/render/ground.h"

namespace throng::render {

struct FrameSettings {
  std::optional<int> fixed_lod;       // every agent with this LOD; empty = the LOD rule
  float lod_threshold_pixels = 1.0f;  // screen error the LOD rule allows (> 0)
  bool tint = true;                   // false: CrowdFrame::tints are ignored
  bool lod_tint = false;              // debug: every agent in its LOD's colour
  std::optional<std::array<glm::vec4, kAgentStateCount>> state_tints;
  GroundDesc ground;
  ShadowMode shadows = ShadowMode::kOff;
};

// The colour agent `agent` of `frame` is drawn with at LOD `lod`: its LOD's debug colour, or its
// tint (unless tints are off) times its state's tint (when there are both).
inline glm::vec4 agentTint(const FrameSettings& settings, const CrowdFrame& frame, uint32_t agent,
                           int lod) {
  if (settings.lod_tint) return lodDebugColor(lod);
  glm::vec4 tint = frame.tints.empty() || !settings.tint ? glm::vec4(1.0f) : frame.tints[agent];
  if (settings.state_tints && !frame.states.empty()) {
    tint *= (*settings.state_tints)[static_cast<int>(frame.states[agent])];
  }
  return tint;
}

// What a user's shader reads of agent `agent` of `frame`: its index (CrowdFrame::agent_ids, else
// its place in the frame) and its state (idle when the frame has none).
inline uint32_t agentId(const CrowdFrame& frame, uint32_t agent) {
  return frame.agent_ids.empty() ? agent : frame.agent_ids[agent];
}
inline uint8_t agentStateByte(const CrowdFrame& frame, uint32_t agent) {
  return frame.states.empty() ? uint8_t{0} : static_cast<uint8_t>(frame.states[agent]);
}
// The agent's visible props (every one when the frame gives none).
inline uint32_t agentAttachments(const CrowdFrame& frame, uint32_t agent) {
  return frame.attachments.empty() ? kAllAttachments : frame.attachments[agent] & kAllAttachments;
}

}  // namespace throng::render
