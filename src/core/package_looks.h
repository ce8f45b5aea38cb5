// The package's MATL (materials, variant names) and IMGS (mip chains) sections (internal).
#pragma once

#include <string>
#include <vector>

#include "byte_io.h"
#include "throng/core/image.h"
#include "throng/core/material.h"

namespace throng::detail {

void writeMaterials(ByteWriter& w, const std::vector<Material>& materials,
                    const std::vector<std::string>& variants);
void writeImages(ByteWriter& w, const std::vector<PackageImage>& images);

// Decode what the writers wrote; failures stick in `r` (counts are checked against the bytes
// left before anything is allocated). Values are checked later by validatePackage.
void readMaterials(ByteReader& r, std::vector<Material>& materials,
                   std::vector<std::string>& variants);
std::vector<PackageImage> readImages(ByteReader& r);

}  // namespace throng::detail
