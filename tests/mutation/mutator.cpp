// Seeded mutations of reader inputs for the mutation tests: byte-level damage and hostile numbers.
#include "mutation/mutator.h"

#include <algorithm>
#include <cstring>

#include <gtest/gtest.h>

#include "throng/core/excerpt.h"

namespace throng::test {
namespace {

// Integers are enlarged only while they stay far from overflowing 64 bits.
constexpr int64_t kLargest = int64_t{1} << 60;

// Values that break readers which trust counts and offsets.
constexpr uint32_t kHostileWords[] = {0u,          1u,          0xFFFFFFFFu, 0x80000000u,
                                      0x7FFFFFFFu, 1000000000u, 0x10000u,    0xFFFFu};

size_t pick(std::mt19937_64& rng, size_t n) {
  return n == 0 ? 0 : static_cast<size_t>(rng() % n);
}

// Members whose numbers a reader uses as counts, sizes, offsets or indices.
bool isStructural(const std::string& key) {
  static const char* kKeys[] = {"count",       "byteOffset",    "byteLength",
                                "byteStride",  "bufferView",    "buffer",
                                "accessor",    "input",         "output",
                                "sampler",     "node",          "mesh",
                                "skin",        "skeleton",      "indices",
                                "POSITION",    "NORMAL",        "TEXCOORD_0",
                                "JOINTS_0",    "WEIGHTS_0",     "joints",
                                "children",    "nodes",         "scene",
                                "mode",        "componentType", "inverseBindMatrices",
                                "source",      "min",           "max",
                                "translation", "rotation",      "scale",
                                "matrix"};
  return std::any_of(std::begin(kKeys), std::end(kKeys), [&](const char* k) { return key == k; });
}

// Every number under a structural member (and every array/object holding structure), by pointer.
void collect(nlohmann::json& node, const std::string& key, bool structural,
             std::vector<nlohmann::json*>& numbers, std::vector<nlohmann::json*>& containers) {
  if (node.is_number()) {
    if (structural) numbers.push_back(&node);
    return;
  }
  if (node.is_array()) {
    if (!node.empty()) containers.push_back(&node);
    for (auto& element : node) collect(element, key, structural, numbers, containers);
  } else if (node.is_object()) {
    if (!node.empty()) containers.push_back(&node);
    for (auto it = node.begin(); it != node.end(); ++it) {
      collect(it.value(), it.key(), structural || isStructural(it.key()), numbers, containers);
    }
  }
}

}  // namespace

std::mt19937_64 mutationRng(const std::string& name, int index) {
  std::seed_seq seed(name.begin(), name.end());
  std::mt19937_64 rng(seed);
  rng.discard(static_cast<unsigned long long>(index) * 7 + 1);
  return std::mt19937_64(rng() ^ (static_cast<uint64_t>(index) * 0x9E3779B97F4A7C15ull));
}

std::string mutateBytes(std::string bytes, std::mt19937_64& rng, size_t protect) {
  if (bytes.size() <= protect + 4) return bytes;
  const size_t span = bytes.size() - protect;
  auto at = [&] { return protect + pick(rng, span); };
  switch (rng() % 7) {
    case 0: {  // a few bit flips
      const int flips = 1 + static_cast<int>(rng() % 8);
      for (int i = 0; i < flips; ++i) bytes[at()] ^= static_cast<char>(1u << (rng() % 8));
      break;
    }
    case 1:  // truncation
      bytes.resize(protect + pick(rng, span));
      break;
    case 2: {  // a range cut out
      const size_t from = at();
      bytes.erase(from, 1 + pick(rng, std::min<size_t>(64, bytes.size() - from)));
      break;
    }
    case 3:
    case 4: {  // a word set to a hostile number (counts, sizes, offsets past the end)
      const size_t word = (protect + 3) / 4 * 4 + 4 * pick(rng, (bytes.size() - protect) / 4);
      if (word + 4 > bytes.size()) break;
      uint32_t value = kHostileWords[pick(rng, std::size(kHostileWords))];
      if (rng() % 4 == 0) {  // enlarge what is there
        uint32_t old = 0;
        std::memcpy(&old, bytes.data() + word, 4);
        value = old * 1000u + 1u;
      }
      std::memcpy(bytes.data() + word, &value, 4);
      break;
    }
    case 5: {  // two words swapped
      const size_t words = (bytes.size() - protect) / 4;
      if (words < 2) break;
      const size_t a = protect + 4 * pick(rng, words), b = protect + 4 * pick(rng, words);
      if (a + 4 <= bytes.size() && b + 4 <= bytes.size()) {
        std::swap_ranges(bytes.begin() + static_cast<long>(a),
                         bytes.begin() + static_cast<long>(a + 4),
                         bytes.begin() + static_cast<long>(b));
      }
      break;
    }
    default: {  // a range duplicated
      const size_t from = at();
      const size_t length = 1 + pick(rng, std::min<size_t>(256, bytes.size() - from));
      bytes.insert(at(), bytes.substr(from, length));
      break;
    }
  }
  return bytes;
}

void mutateGltfJson(nlohmann::json& document, std::mt19937_64& rng) {
  std::vector<nlohmann::json*> numbers, containers;
  collect(document, "", false, numbers, containers);
  const int edits = 1 + static_cast<int>(rng() % 3);
  for (int e = 0; e < edits; ++e) {
    const unsigned kind = static_cast<unsigned>(rng() % 10);
    if (kind < 7 && !numbers.empty()) {
      nlohmann::json& n = *numbers[pick(rng, numbers.size())];
      switch (kind) {
        case 0:
          n = 1'000'000'000;
          break;
        case 1:
          n = -1;
          break;
        case 2:
          n = n.is_number_float() ? nlohmann::json(3.0e38) : nlohmann::json(4'294'967'295ull);
          break;
        case 3:  // one past (an index or offset just past the end)
          if (n.is_number_float()) {
            n = -0.0;
          } else if (const int64_t v = n.get<int64_t>(); v < kLargest) {
            n = v + 1;
          }
          break;
        case 4:  // enlarged count or offset
          if (n.is_number_float()) {
            n = n.get<double>() * 1e30;
          } else if (const int64_t v = n.get<int64_t>();
                     v > -kLargest / 1000 && v < kLargest / 1000) {
            n = v * 1000 + 7;
          }
          break;
        case 5:
          n = 0;
          break;
        default: {  // swapped with another structural number
          nlohmann::json& other = *numbers[pick(rng, numbers.size())];
          std::swap(n, other);
          break;
        }
      }
    } else if (!containers.empty()) {
      nlohmann::json& c = *containers[pick(rng, containers.size())];
      if (c.is_array() && !c.empty()) {
        c.erase(c.begin() + static_cast<long>(pick(rng, c.size())));
      } else if (c.is_object() && !c.empty()) {
        auto it = c.begin();
        std::advance(it, static_cast<long>(pick(rng, c.size())));
        c.erase(it);
      }
      // The pointers below may dangle now: stop editing.
      return;
    }
  }
}

void expectCleanOutcome(bool ok, const Status& status, const std::string& source,
                        const std::string& label) {
  if (ok) return;
  const std::string& m = status.message();
  EXPECT_NE(status.code(), ErrorCode::kOk) << label;
  EXPECT_EQ(m.find('\n'), std::string::npos) << label << ": " << excerpt(m, 300);
  EXPECT_LE(m.size(), kMaxMessageBytes + 32) << label << ": " << excerpt(m, 300);
  const bool named = m.starts_with(source) && m.size() > source.size() &&
                     (m[source.size()] == ':' || m[source.size()] == ' ');
  EXPECT_TRUE(named) << label << ": " << excerpt(m, 300);
}

void expectWithinTimeLimit(const std::function<void()>& read, const std::string& label) {
  const auto start = std::chrono::steady_clock::now();
  read();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, kSecondsPerInput) << label << " took " << seconds << " s";
}

}  // namespace throng::test
