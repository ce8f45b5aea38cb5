// Attachment offsets, mask ranges and the checks of both.
#include "throng/core/attachment.h"

#include <cmath>
#include <set>

#include <fmt/core.h>
#include <glm/gtc/matrix_transform.hpp>

#include "throng/core/excerpt.h"

namespace throng {

glm::mat4 AttachmentOffset::matrix() const {
  glm::mat4 m = glm::translate(glm::mat4(1.0f), translation);
  m = glm::rotate(m, glm::radians(rotation_degrees.z), glm::vec3(0.0f, 0.0f, 1.0f));
  m = glm::rotate(m, glm::radians(rotation_degrees.y), glm::vec3(0.0f, 1.0f, 0.0f));
  m = glm::rotate(m, glm::radians(rotation_degrees.x), glm::vec3(1.0f, 0.0f, 0.0f));
  return glm::scale(m, glm::vec3(scale));
}

JointRange jointRange(const Skeleton& skeleton, uint16_t root) {
  const std::span<const int16_t> parents = skeleton.parents();
  JointRange range;
  range.first = root;
  range.parent = parents[root];
  // Depth-first order: the subtree runs until the first joint whose parent lies before root.
  uint32_t end = root + 1u;
  while (end < parents.size() && parents[end] >= static_cast<int>(root)) ++end;
  range.end = static_cast<uint16_t>(end);
  return range;
}

SkinnedMesh withVisibleAttachments(const SkinnedMesh& mesh, uint32_t mask) {
  SkinnedMesh out = mesh;
  if (mesh.attachments.empty()) return out;
  out.indices.clear();
  auto keep = [&](uint32_t first, uint32_t count) {
    for (uint32_t i = first; i + 2 < first + count; i += 3) {
      if (!attachmentVisible(mesh.attachments[mesh.indices[i]], mask)) continue;
      out.indices.insert(out.indices.end(), mesh.indices.begin() + i, mesh.indices.begin() + i + 3);
    }
  };
  if (mesh.submeshes.empty()) keep(0, static_cast<uint32_t>(mesh.indices.size()));
  for (SubMesh& sm : out.submeshes) {
    const auto first = static_cast<uint32_t>(out.indices.size());
    keep(sm.first_index, sm.index_count);
    sm.first_index = first;
    sm.index_count = static_cast<uint32_t>(out.indices.size()) - first;
  }
  return out;
}

int findAttachment(std::span<const Attachment> attachments, std::string_view name) {
  for (size_t i = 0; i < attachments.size(); ++i) {
    if (attachments[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

int findJointMask(std::span<const JointMask> masks, std::string_view name) {
  for (size_t i = 0; i < masks.size(); ++i) {
    if (masks[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

Status validateAttachmentGroups(std::span<const uint8_t> groups, size_t attachment_count,
                                std::string_view source) {
  for (size_t v = 0; v < groups.size(); ++v) {
    if (groups[v] > attachment_count) {
      return Status(ErrorCode::kInvalidData,
                    fmt::format("{}: vertex {} belongs to prop {}, the character has {} props",
                                source, v, static_cast<int>(groups[v]) - 1, attachment_count));
    }
  }
  return {};
}

Status validateAttachments(std::span<const Attachment> attachments,
                           std::span<const JointMask> masks, const Skeleton& skeleton,
                           std::string_view source) {
  if (attachments.size() > static_cast<size_t>(kMaxAttachments)) {
    return Status(ErrorCode::kLimitExceeded,
                  fmt::format("{}: {} props, more than the limit of {}", source, attachments.size(),
                              kMaxAttachments));
  }
  if (masks.size() > static_cast<size_t>(kMaxJointMasks)) {
    return Status(ErrorCode::kLimitExceeded, fmt::format("{}: {} masks, more than the limit of {}",
                                                         source, masks.size(), kMaxJointMasks));
  }
  const auto joints = static_cast<size_t>(skeleton.jointCount());
  std::set<std::string_view> names;
  for (size_t i = 0; i < attachments.size(); ++i) {
    const Attachment& a = attachments[i];
    const std::string where = fmt::format("{}: prop {} ('{}')", source, i, excerpt(a.name));
    if (a.name.empty() || !names.insert(a.name).second) {
      return Status(ErrorCode::kInvalidData, where + ": its name is empty or repeated");
    }
    if (a.joint >= joints) {
      return Status(ErrorCode::kInvalidData, fmt::format("{}: joint {} is not in the skeleton "
                                                         "({} joints)",
                                                         where, a.joint, joints));
    }
    const AttachmentOffset& o = a.offset;
    if (!isFinite(o.translation) || !isFinite(o.rotation_degrees) || !std::isfinite(o.scale) ||
        !(o.scale > 0.0f)) {
      return Status(ErrorCode::kInvalidData,
                    where + ": its offset is not finite or its scale is not positive");
    }
  }
  names.clear();
  for (size_t i = 0; i < masks.size(); ++i) {
    const JointMask& m = masks[i];
    const std::string where = fmt::format("{}: mask {} ('{}')", source, i, excerpt(m.name));
    if (m.name.empty() || !names.insert(m.name).second) {
      return Status(ErrorCode::kInvalidData, where + ": its name is empty or repeated");
    }
    if (m.root >= joints) {
      return Status(
          ErrorCode::kInvalidData,
          fmt::format("{}: joint {} is not in the skeleton ({} joints)", where, m.root, joints));
    }
  }
  return {};
}

}  // namespace throng
