// Mesa's switch for a real OpenGL ES 2.0 context, which the tools (never the library) flip.
#pragma once

namespace throng::cli {

// Mesa answers an ES 2.0 request with an ES 3.2 context unless MESA_GLES_VERSION_OVERRIDE=2.0 is
// in the environment when the EGL display is initialised. For gles_major 2 this sets it (unless
// the user did); for 3 it removes it again when it was set here. Not thread-safe: call before
// creating a display, from the main thread.
void useGlesVersion(int gles_major);

}  // namespace throng::cli
