// glTF 2.0 import: one Character (skeleton, skinned mesh, clips) from a .gltf or .glb file.
#include "throng/offline/gltf_import.h"

#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "offline/clip_events.h"
#include "offline/gltf_read_animation.h"
#include "offline/gltf_read_document.h"
#include "offline/gltf_read_material.h"
#include "offline/gltf_read_mesh.h"
#include "offline/gltf_read_morph.h"
#include "offline/gltf_read_skeleton.h"
#include "offline/gltf_read_tangents.h"

namespace throng {

Result<Character> importGltf(const std::string& path, const ImportOptions& options) {
  Result<gltf::Document> doc = gltf::loadDocument(path, options);
  if (!doc.ok()) return doc.status();
  Result<gltf::NodeTree> tree = gltf::readNodeTree(*doc);
  if (!tree.ok()) return tree.status();
  Result<gltf::SkeletonImport> skeleton = gltf::readSkeleton(*doc, *tree);
  if (!skeleton.ok()) return skeleton.status();
  Result<gltf::MorphLayout> morph = gltf::planMorphTargets(*doc, *skeleton);
  if (!morph.ok()) return morph.status();
  Result<SkinnedMesh> mesh = gltf::readMesh(*doc, *skeleton, *morph);
  if (!mesh.ok()) return mesh.status();
  Result<std::vector<std::string>> variants = gltf::readVariantNames(*doc);
  if (!variants.ok()) return variants.status();
  Result<gltf::Looks> looks = gltf::readLooks(*doc, *mesh, std::move(variants).value());
  if (!looks.ok()) return looks.status();
  if (Status s = gltf::finishTangents(*doc, *mesh, looks->materials,
                                      options.tangents == TangentPolicy::kAlways);
      !s.ok()) {
    return s;
  }
  Result<std::vector<Clip>> clips =
      gltf::readClips(*doc, skeleton->node_to_joint, skeleton->skeleton.jointCount(), &*morph);
  if (!clips.ok()) return clips.status();

  Character character;
  character.skeleton = std::move(skeleton->skeleton);
  character.mesh = std::move(mesh).value();
  character.clips = std::move(clips).value();
  character.materials = std::move(looks->materials);
  character.images = std::move(looks->images);
  character.variants = std::move(looks->variants);
  character.warnings = std::move(doc->warnings);

  std::set<std::string> names;
  for (const Clip& clip : character.clips) names.insert(clip.name);
  for (const std::string& clip_file : options.clip_files) {
    Result<std::vector<Clip>> more =
        importClipsByName(clip_file, character.skeleton, character.warnings, options);
    if (!more.ok()) return more.status();
    for (Clip& clip : *more) {
      if (!names.insert(clip.name).second) {
        const std::string renamed = fmt::format("{}#{}", clip.name, character.clips.size());
        character.warnings.push_back(
            makeWarning(WarningKind::kClipRenamed,
                        fmt::format("{}: clip '{}' already exists; added as '{}'", clip_file,
                                    clip.name, renamed),
                        fmt::format("'{}' -> '{}'", clip.name, renamed)));
        character.warnings.back()
            .with("file", clip_file)
            .with("clip", clip.name)
            .with("renamed", renamed);
        clip.name = renamed;
        names.insert(clip.name);
      }
      character.clips.push_back(std::move(clip));
    }
  }
  if (options.event_sidecar) {
    const std::string sidecar = clipEventsSidecarPath(path);
    std::error_code error;
    if (std::filesystem::exists(sidecar, error)) {
      if (Status s = readClipEvents(sidecar, character); !s.ok()) return s;
    }
  }
  if (Status status = validateCharacter(character, path); !status.ok()) return status;
  // Warnings quote names from the file: one line each, of bounded length, like error messages.
  for (Warning& warning : character.warnings) warning = oneLineWarning(std::move(warning));
  return character;
}

Result<std::vector<Clip>> importClipsByName(const std::string& path, const Skeleton& target,
                                            std::vector<Warning>& warnings,
                                            const ImportOptions& options) {
  Result<gltf::Document> doc = gltf::loadDocument(path, options);
  if (!doc.ok()) return doc.status();
  // The node tree check guards against cycles and bad indices even though rest values are unused.
  Result<gltf::NodeTree> tree = gltf::readNodeTree(*doc);
  if (!tree.ok()) return tree.status();
  std::vector<int> node_to_joint(doc->model.nodes.size(), -1);
  for (size_t n = 0; n < node_to_joint.size(); ++n) {
    node_to_joint[n] = target.findJoint(gltf::nodeName(*doc, static_cast<int>(n)));
  }
  Result<std::vector<Clip>> clips = gltf::readClips(*doc, node_to_joint, target.jointCount());
  if (!clips.ok()) return clips.status();
  for (Warning& warning : doc->warnings) warnings.push_back(oneLineWarning(std::move(warning)));
  return clips;
}

}  // namespace throng
