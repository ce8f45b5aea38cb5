// The tools' agent colours by state: the same in `throng demo`, the viewer and the web page.
#pragma once

#include <array>

#include <glm/glm.hpp>

#include "throng/crowd/clip_set.h"

namespace throng::cli {

// RGBA 0..1 per AgentState, multiplied into the agents' materials (CrowdRendererDesc::state_tints
// or per-agent tints).
inline constexpr std::array<glm::vec4, kAgentStateCount> kStateTints = {
    glm::vec4(0.80f, 0.80f, 0.85f, 1.0f),  // idle: grey
    glm::vec4(0.45f, 0.70f, 1.00f, 1.0f),  // walk: blue
    glm::vec4(0.40f, 0.95f, 0.50f, 1.0f),  // run: green
    glm::vec4(1.00f, 0.55f, 0.25f, 1.0f),  // attack: orange
    glm::vec4(0.55f, 0.25f, 0.25f, 1.0f),  // dead: dark red
    glm::vec4(0.85f, 0.55f, 0.95f, 1.0f),  // play (a named clip): violet
};

inline glm::vec4 stateTint(AgentState state) {
  return kStateTints[static_cast<int>(state)];
}

}  // namespace throng::cli
