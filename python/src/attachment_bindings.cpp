// Python: props carried by joints and joint masks, on characters (added) and packages (listed).
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/core.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "module.h"
#include "throng/core/attachment.h"
#include "throng/offline/attachments.h"

namespace throng::python {
namespace {

// A prop as Python sees it: joint by name, the offset as bake --attach writes it.
struct PropInfo {
  std::string name;
  std::string joint;
  std::vector<float> offset;  // tx, ty, tz, rx, ry, rz (degrees), s
  std::string source;
};

// A mask: its root joint by name and how many joints its subtree holds.
struct MaskInfo {
  std::string name;
  std::string root;
  int joints = 0;
};

std::vector<PropInfo> propInfos(const Skeleton& skeleton, const std::vector<Attachment>& props) {
  std::vector<PropInfo> out;
  for (const Attachment& a : props) {
    const AttachmentOffset& o = a.offset;
    out.push_back({a.name,
                   std::string(skeleton.names()[a.joint]),
                   {o.translation.x, o.translation.y, o.translation.z, o.rotation_degrees.x,
                    o.rotation_degrees.y, o.rotation_degrees.z, o.scale},
                   a.source});
  }
  return out;
}

std::vector<MaskInfo> maskInfos(const Skeleton& skeleton, const std::vector<JointMask>& masks) {
  std::vector<MaskInfo> out;
  for (const JointMask& m : masks) {
    const JointRange range = jointRange(skeleton, m.root);
    out.push_back({m.name, std::string(skeleton.names()[m.root]), range.end - range.first});
  }
  return out;
}

// One prop of with_props: (joint, path) or (joint, path, offset), offset the 7 numbers of
// `bake --attach JOINT=PROP@tx,ty,tz,rx,ry,rz,s`.
AttachmentSpec propSpec(const py::tuple& item) {
  if (item.size() != 2 && item.size() != 3) {
    raiseStatus(Status(ErrorCode::kInvalidArgument,
                       "with_props: a prop is (joint, path) or (joint, path, offset)"));
  }
  AttachmentSpec spec;
  spec.joint = item[0].cast<std::string>();
  spec.file = pathString(item[1].cast<std::filesystem::path>());
  if (item.size() == 3) {
    const std::vector<float> o = item[2].cast<std::vector<float>>();
    if (o.size() != 7) {
      raiseStatus(Status(ErrorCode::kInvalidArgument,
                         fmt::format("with_props: prop '{}' on '{}': the offset takes 7 numbers "
                                     "(tx, ty, tz, rx, ry, rz, s), not {}",
                                     spec.file, spec.joint, o.size())));
    }
    spec.offset = {{o[0], o[1], o[2]}, {o[3], o[4], o[5]}, o[6]};
  }
  return spec;
}

std::shared_ptr<PyCharacter> withProps(
    const PyCharacter& c, const std::vector<py::tuple>& props,
    const std::vector<std::pair<std::string, std::string>>& masks,
    const std::vector<std::filesystem::path>& allow_roots) {
  std::vector<AttachmentSpec> specs;
  for (const py::tuple& item : props) specs.push_back(propSpec(item));
  ImportOptions import;
  for (const auto& p : allow_roots) import.allowed_roots.push_back(pathString(p));
  Character character = c.character;
  const Status s = [&] {
    py::gil_scoped_release release;
    if (Status a = attachProps(character, specs, import, c.source); !a.ok()) return a;
    for (const auto& [name, joint] : masks) {
      if (Status m = addJointMask(character, {name, joint}, c.source); !m.ok()) return m;
    }
    return Status::okStatus();
  }();
  if (!s.ok()) raiseStatus(s);
  return std::make_shared<PyCharacter>(std::move(character), c.source);
}

}  // namespace

void bindAttachments(py::module_& m) {
  using CharacterClass = py::class_<PyCharacter, std::shared_ptr<PyCharacter>>;
  using PackageClass = py::class_<PyPackage, std::shared_ptr<PyPackage>>;
  auto character = py::reinterpret_borrow<CharacterClass>(m.attr("Character"));
  auto package = py::reinterpret_borrow<PackageClass>(m.attr("Package"));
  py::class_<PropInfo>(m, "Prop",
                       "A prop carried by a joint: name (its file's stem), joint (name), offset "
                       "(tx, ty, tz, rx, ry, rz in degrees, s: bake --attach's), source (its "
                       "file).")
      .def_readonly("name", &PropInfo::name)
      .def_readonly("joint", &PropInfo::joint)
      .def_property_readonly("offset",
                             [](const PropInfo& p) { return py::tuple(py::cast(p.offset)); })
      .def_readonly("source", &PropInfo::source)
      .def("__repr__", [](const PropInfo& p) {
        return fmt::format("Prop('{}', joint='{}')", p.name, p.joint);
      });
  py::class_<MaskInfo>(m, "Mask",
                       "A joint mask layers play on: name, root (joint name), joints (in the "
                       "root's subtree, root included).")
      .def_readonly("name", &MaskInfo::name)
      .def_readonly("root", &MaskInfo::root)
      .def_readonly("joints", &MaskInfo::joints)
      .def("__repr__", [](const MaskInfo& k) {
        return fmt::format("Mask('{}', root='{}', {} joints)", k.name, k.root, k.joints);
      });

  character
      .def_property_readonly("props",
                             [](const PyCharacter& c) {
                               return propInfos(c.character.skeleton, c.character.attachments);
                             })
      .def_property_readonly(
          "masks",
          [](const PyCharacter& c) { return maskInfos(c.character.skeleton, c.character.masks); })
      .def("with_props", &withProps, py::kw_only(), py::arg("props") = std::vector<py::tuple>{},
           py::arg("masks") = std::vector<std::pair<std::string, std::string>>{},
           py::arg("allow_roots") = std::vector<std::filesystem::path>{},
           "A new Character carrying these props and masks as well (docs/props_and_layers.md): "
           "props are (joint, path) or (joint, path, offset) with offset bake --attach's 7 "
           "numbers (tx, ty, tz, rx, ry, rz in degrees, s); masks are (name, joint). Raises "
           "ValueError (no such joint, with a hint; a name taken; the 16-prop limit), OSError "
           "and RuntimeError (the prop's file).");
  package
      .def_property_readonly(
          "props",
          [](const PyPackage& p) { return propInfos(p.package.skeleton, p.package.attachments); })
      .def_property_readonly("masks", [](const PyPackage& p) {
        return maskInfos(p.package.skeleton, p.package.masks);
      });
}

}  // namespace throng::python
