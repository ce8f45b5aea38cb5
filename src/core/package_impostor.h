// The package's IMPS section (version 6 on): the impostor's layout and atlases (internal).
#pragma once

#include "byte_io.h"
#include "throng/core/impostor.h"

namespace throng::detail {

void writeImpostor(ByteWriter& w, const Impostor& impostor);
// Decodes what writeImpostor wrote; failures stick in `r` (the atlas sizes are checked against
// the limits and the bytes left before anything is allocated). Values are checked later by
// validatePackage (validateImpostor).
Impostor readImpostor(ByteReader& r);

}  // namespace throng::detail
