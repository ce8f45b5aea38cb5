// Props at joints and joint masks, offline: the --attach / --mask texts, the sidecar
// NAME.attachments.json, and merging a prop's mesh and looks into a character.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "throng/core/attachment.h"
#include "throng/core/character.h"
#include "throng/core/status.h"
#include "throng/offline/gltf_import.h"

namespace throng {

// One prop to attach: the glTF file of a static mesh, the joint (by name) that carries it, and
// its offset in the joint's space.
struct AttachmentSpec {
  std::string joint;
  std::string file;
  AttachmentOffset offset;
};

// One mask to name: the subtree of `joint` (by name).
struct MaskSpec {
  std::string name;
  std::string joint;
};

// What a sidecar lists (docs/formats.md, "Attachments sidecar").
struct AttachmentSidecar {
  std::vector<AttachmentSpec> attachments;  // files relative to the sidecar's folder, resolved
  std::vector<MaskSpec> masks;
};

// "JOINT=PROP.glb" or "JOINT=PROP.glb@tx,ty,tz,rx,ry,rz,s" (7 numbers; degrees; identity when
// omitted). Errors (kInvalidArgument) quote the text and say what is wrong.
Result<AttachmentSpec> parseAttachmentSpec(std::string_view text);
// "NAME=JOINT". Errors (kInvalidArgument) quote the text.
Result<MaskSpec> parseMaskSpec(std::string_view text);

// "dir/Hero.glb" -> "dir/Hero.attachments.json".
std::string attachmentsSidecarPath(std::string_view gltf_path);
// Parses sidecar JSON text: {"attachments": [{"joint": "hand_r", "prop": "sword.glb",
// "translation": [x, y, z], "rotation": [rx, ry, rz], "scale": s}, ...], "masks": [{"name":
// "upper", "joint": "Spine"}, ...]} (both lists optional, offset fields optional). Prop paths are
// taken relative to `folder` unless absolute. Errors (kParseError) name `source` and the entry.
Result<AttachmentSidecar> parseAttachmentsSidecar(std::string_view json, std::string_view source,
                                                  const std::string& folder);
// Reads `path` (kIoError when unreadable) and parses it, props relative to its folder.
Result<AttachmentSidecar> readAttachmentsSidecar(const std::string& path);

// Adds `prop` (a character whose bind mesh is the prop as its file places it: importGltf of a
// static mesh) to `character`, carried by joint `joint` with `offset`: its vertices are placed at
// inverse(inverse_bind(joint)) * offset * p in the character's bind space, weighted 1 to the
// joint, and tagged with the new prop's group (SkinnedMesh::attachments). Its materials join the
// character's: one equal to a character material (same factors, modes and texture pixels) is
// shared, and its triangles join the character's sub-mesh of that material (no draw call more);
// others are added with their images. Streams one side lacks are filled (uv 0, colour white;
// tangents generated where the other side has them). `name` must be new and non-empty. Errors:
// kInvalidArgument (no such joint, naming the joint and `source`; a name taken; kMaxAttachments
// reached), kInvalidData (from validateCharacter).
Status attachProp(Character& character, const std::string& joint, const Character& prop,
                  const AttachmentOffset& offset, const std::string& name,
                  const std::string& prop_source, std::string_view source);
// Imports each spec's file (importGltf with `import`; no event sidecar) and attaches it, named
// after the file's stem (a repeat gets "#2", "#3", ...). Errors as importGltf and attachProp.
Status attachProps(Character& character, std::span<const AttachmentSpec> specs,
                   const ImportOptions& import, std::string_view source);
// Adds a mask: the subtree of joint `spec.joint`. Errors (kInvalidArgument): no such joint, a
// name taken or empty, kMaxJointMasks reached; naming `source`.
Status addJointMask(Character& character, const MaskSpec& spec, std::string_view source);

}  // namespace throng
