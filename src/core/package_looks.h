// The package's MATL (materials, variant names), PBRM (metallic-roughness, normal, occlusion,
// emissive; version 4 on) and IMGS (mip chains) sections (internal).
#pragma once

#include <string>
#include <vector>

#include "byte_io.h"
#include "throng/core/image.h"
#include "throng/core/material.h"

namespace throng::detail {

void writeMaterials(ByteWriter& w, const std::vector<Material>& materials,
                    const std::vector<std::string>& variants);
void writePbr(ByteWriter& w, const std::vector<Material>& materials);
void writeImages(ByteWriter& w, const std::vector<PackageImage>& images);

// Decode what the writers wrote; failures stick in `r` (counts are checked against the bytes
// left before anything is allocated). Values are checked later by validatePackage.
void readMaterials(ByteReader& r, std::vector<Material>& materials,
                   std::vector<std::string>& variants);
// PBRM fills in the materials MATL read (its count must be theirs).
void readPbr(ByteReader& r, std::vector<Material>& materials);
std::vector<PackageImage> readImages(ByteReader& r);
// A version 3 package has no PBRM: its materials get kVersion3MetallicFactor and
// kVersion3RoughnessFactor (package_format.h), the rest stays at Material's defaults.
void setVersion3Pbr(std::vector<Material>& materials);

}  // namespace throng::detail
