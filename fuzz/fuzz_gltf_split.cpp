// libFuzzer target: the glTF importer on a .gltf with an external buffer. The input is a 4-byte
// little-endian JSON length, the JSON (written as doc.gltf) and the rest (written as buffer.bin
// beside it; the seeds' buffer 0 names it by uri).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "fuzz_support.h"
#include "throng/offline/gltf_import.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace throng;
  if (size < 4) return 0;
  uint32_t json_length = 0;
  std::memcpy(&json_length, data, 4);
  const std::string_view rest(reinterpret_cast<const char*>(data) + 4, size - 4);
  const size_t split = std::min<size_t>(json_length, rest.size());
  const std::string path = (fuzz::scratchDir() / "doc.gltf").string();
  fuzz::writeBytes(path, rest.substr(0, split));
  fuzz::writeBytes(fuzz::scratchDir() / "buffer.bin", rest.substr(split));
  Result<Character> character = importGltf(path);
  if (!character.ok()) {
    fuzz::checkError(character.status(), path);
    return 0;
  }
  if (Status s = validateCharacter(*character, path); !s.ok()) {
    fuzz::reportAndTrap("the importer returned a character its own validation refuses", s);
  }
  return 0;
}
