// The skeleton builder: validates a RawSkeleton and flattens it parents-first.
#include "throng/core/skeleton.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <unordered_map>

#include <fmt/core.h>

#include "throng/core/excerpt.h"

namespace throng {
namespace {

// A joint name as a person means it: letters and digits, lower case.
std::string foldName(std::string_view name) {
  std::string out;
  for (const char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return out;
}

}  // namespace

int Skeleton::findJoint(std::string_view name) const {
  for (size_t i = 0; i < names_.size(); ++i) {
    if (names_[i] == name) return static_cast<int>(i);
  }
  return -1;
}

std::string jointNameHint(const Skeleton& skeleton, std::string_view name) {
  const std::string wanted = foldName(name);
  std::vector<std::string_view> alike;
  if (!wanted.empty()) {
    for (const std::string& joint : skeleton.names()) {
      const std::string folded = foldName(joint);
      if (folded.find(wanted) != std::string::npos ||
          (!folded.empty() && wanted.find(folded) != std::string::npos)) {
        alike.push_back(joint);
      }
    }
  }
  const bool suggest = !alike.empty() && alike.size() <= kJointNamesShown;
  std::string out = suggest ? "did you mean " : "joints: ";
  const std::span<const std::string> all = skeleton.names();
  const size_t shown = suggest ? alike.size() : std::min(all.size(), kJointNamesShown);
  for (size_t i = 0; i < shown; ++i) {
    const std::string_view joint = suggest ? alike[i] : std::string_view(all[i]);
    if (i > 0) out += suggest && i + 1 == shown ? " or " : ", ";
    out += suggest ? fmt::format("'{}'", excerpt(joint)) : excerpt(joint);
  }
  if (suggest) return out + "?";
  if (all.size() > shown) out += fmt::format(", ... ({} in all)", all.size());
  return out;
}

std::vector<int> Skeleton::children(int joint) const {
  std::vector<int> out;
  for (size_t i = 0; i < parents_.size(); ++i) {
    if (parents_[i] == joint) out.push_back(static_cast<int>(i));
  }
  return out;
}

Result<Skeleton> buildSkeleton(const RawSkeleton& raw, std::string_view source) {
  const auto& joints = raw.joints;
  if (joints.size() > static_cast<size_t>(kMaxJoints)) {
    return Status(ErrorCode::kLimitExceeded, fmt::format("{}: {} joints, more than the limit of {}",
                                                         source, joints.size(), kMaxJoints));
  }
  std::unordered_map<std::string, int> by_name;
  for (size_t i = 0; i < joints.size(); ++i) {
    const RawJoint& j = joints[i];
    if (j.name.empty()) {
      return Status(ErrorCode::kInvalidData, fmt::format("{}: joint {} has no name", source, i));
    }
    if (!by_name.emplace(j.name, static_cast<int>(i)).second) {
      return Status(ErrorCode::kInvalidData,
                    fmt::format("{}: duplicate joint name '{}'", source, excerpt(j.name)));
    }
    if (!isFinite(j.rest)) {
      return Status(
          ErrorCode::kInvalidData,
          fmt::format("{}: joint '{}': non-finite rest transform", source, excerpt(j.name)));
    }
    if (!isFinite(j.inverse_bind)) {
      return Status(
          ErrorCode::kInvalidData,
          fmt::format("{}: joint '{}': non-finite inverse bind matrix", source, excerpt(j.name)));
    }
    const float det = glm::determinant(j.inverse_bind);
    if (!isInvertible(j.inverse_bind)) {
      return Status(ErrorCode::kInvalidData,
                    fmt::format("{}: joint '{}': inverse bind matrix is not invertible (det {})",
                                source, excerpt(j.name), det));
    }
  }
  std::vector<int> parent_of(joints.size(), -1);
  std::vector<std::vector<int>> children(joints.size());
  std::vector<int> roots;
  for (size_t i = 0; i < joints.size(); ++i) {
    const RawJoint& j = joints[i];
    if (j.parent.empty()) {
      roots.push_back(static_cast<int>(i));
      continue;
    }
    auto it = by_name.find(j.parent);
    if (it == by_name.end()) {
      return Status(ErrorCode::kInvalidData,
                    fmt::format("{}: joint '{}': unknown parent '{}'", source, excerpt(j.name),
                                excerpt(j.parent)));
    }
    parent_of[i] = it->second;
    children[it->second].push_back(static_cast<int>(i));
  }
  // Depth-first from the roots; any joint not reached lies on a cycle (every parent is known).
  std::vector<int> order;
  order.reserve(joints.size());
  std::vector<int> stack;
  for (auto root = roots.rbegin(); root != roots.rend(); ++root) stack.push_back(*root);
  while (!stack.empty()) {
    const int j = stack.back();
    stack.pop_back();
    order.push_back(j);
    for (auto c = children[j].rbegin(); c != children[j].rend(); ++c) stack.push_back(*c);
  }
  if (order.size() != joints.size()) {
    std::vector<bool> reached(joints.size(), false);
    for (int j : order) reached[j] = true;
    for (size_t i = 0; i < joints.size(); ++i) {
      if (!reached[i]) {
        return Status(ErrorCode::kInvalidData,
                      fmt::format("{}: joint '{}' is part of a parent cycle", source,
                                  excerpt(joints[i].name)));
      }
    }
  }
  std::vector<int> new_index(joints.size());
  for (size_t k = 0; k < order.size(); ++k) new_index[order[k]] = static_cast<int>(k);

  Skeleton s;
  s.names_.reserve(order.size());
  for (int old : order) {
    const RawJoint& j = joints[old];
    s.names_.push_back(j.name);
    s.parents_.push_back(
        static_cast<int16_t>(parent_of[old] < 0 ? kNoParent : new_index[parent_of[old]]));
    s.rest_.push_back(j.rest);
    s.inverse_binds_.push_back(j.inverse_bind);
  }
  return s;
}

RawSkeleton toRaw(const Skeleton& skeleton) {
  RawSkeleton raw;
  raw.joints.resize(skeleton.jointCount());
  for (int i = 0; i < skeleton.jointCount(); ++i) {
    RawJoint& j = raw.joints[i];
    j.name = skeleton.names()[i];
    const int parent = skeleton.parents()[i];
    if (parent != kNoParent) j.parent = skeleton.names()[parent];
    j.rest = skeleton.restPoses()[i];
    j.inverse_bind = skeleton.inverseBinds()[i];
  }
  return raw;
}

}  // namespace throng
