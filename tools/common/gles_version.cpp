// useGlesVersion: sets or clears MESA_GLES_VERSION_OVERRIDE for the tools.
#include "gles_version.h"

#include <cstdlib>

namespace throng::cli {

void useGlesVersion(int gles_major) {
  static bool ours = false;  // the variable in the environment was set here, not by the user
  constexpr const char* kVariable = "MESA_GLES_VERSION_OVERRIDE";
  if (gles_major == 2) {
    if (!std::getenv(kVariable)) {
      setenv(kVariable, "2.0", 1);
      ours = true;
    }
  } else if (ours) {
    unsetenv(kVariable);
    ours = false;
  }
}

}  // namespace throng::cli
