// Mesa's no-op driver (GALLIUM_NOOP=1) under its threaded context (GALLIUM_THREAD unset) crashes
// in glBufferSubData: a minimal program, outside throng, of the GL calls throng's gpu path makes
// when its agent buffer grows (GpuCrowd::reserve, then uploadRecords): a buffer allocated without
// data (glBufferData), another buffer's bytes copied into it on the GPU (glCopyBufferSubData), then
// the CPU writing over the copied range (glBufferSubData). Without the copy it does not crash.
//   cc -O1 -g mesa_noop_threaded.c -lEGL -lGLESv2 -o repro
//   GALLIUM_NOOP=1 ./repro [BUFFER_BYTES [WRITTEN_BYTES]]   segfaults (Mesa 22.3.6, Debian 12)
//   GALLIUM_NOOP=1 GALLIUM_THREAD=0 ./repro                 runs
//   ./repro                                                 runs (llvmpipe)
// scripts/repro/mesa-noop-threaded.sh builds it and runs the three. Each step is printed before
// it runs, so the last line says where it stopped.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl31.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void step(const char* what) {
  printf("%s\n", what);
  fflush(stdout);
}

static int fail(const char* what) {
  fprintf(stderr, "repro: %s failed (EGL 0x%x, GL 0x%x)\n", what, eglGetError(), glGetError());
  return 1;
}

int main(int argc, char** argv) {
  // The gpu path's agent buffer grown to 2,048 agents of 64 bytes, 1,000 agents in it.
  const long bytes = argc > 1 ? atol(argv[1]) : 131072;
  const long written = argc > 2 ? atol(argv[2]) : 64000;
  const char* noop = getenv("GALLIUM_NOOP");
  const char* thread = getenv("GALLIUM_THREAD");
  printf("GALLIUM_NOOP=%s GALLIUM_THREAD=%s, a buffer of %ld bytes, %ld written\n",
         noop ? noop : "(unset)", thread ? thread : "(unset)", bytes, written);
  PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
      (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
  if (!get_display) return fail("eglGetPlatformDisplayEXT");
  EGLDisplay display = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
  if (display == EGL_NO_DISPLAY || !eglInitialize(display, NULL, NULL)) return fail("display");
  if (!eglBindAPI(EGL_OPENGL_ES_API)) return fail("eglBindAPI");
  // Mesa's surfaceless display makes contexts without a config (EGL_KHR_no_config_context).
  const EGLConfig config = EGL_NO_CONFIG_KHR;
  const EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 1,
                                       EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attributes);
  if (context == EGL_NO_CONTEXT) return fail("eglCreateContext");
  if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context))
    return fail("eglMakeCurrent");
  printf("%s | %s\n", (const char*)glGetString(GL_RENDERER), (const char*)glGetString(GL_VERSION));

  char* data = malloc((size_t)bytes);
  memset(data, 0x5a, (size_t)bytes);
  // The old buffer, holding `written` bytes (the agents so far).
  GLuint buffers[2] = {0, 0};
  glGenBuffers(2, buffers);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffers[0]);
  glBufferData(GL_SHADER_STORAGE_BUFFER, written, data, GL_DYNAMIC_COPY);
  // A larger one replaces it: allocated without data, the old contents copied in on the GPU
  // (GpuCrowd::reserve; it then deletes the old buffer, which the crash does not need).
  step("glBufferData (the new buffer, no data)");
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffers[1]);
  glBufferData(GL_SHADER_STORAGE_BUFFER, bytes, NULL, GL_DYNAMIC_COPY);
  step("glCopyBufferSubData (old -> new)");
  glBindBuffer(GL_COPY_READ_BUFFER, buffers[0]);
  glBindBuffer(GL_COPY_WRITE_BUFFER, buffers[1]);
  glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, written);
  // Then the CPU writes the agents into it (GpuCrowd::uploadRecords).
  step("glBufferSubData (the new buffer, over the copied range)");
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffers[1]);
  glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, written, data);
  step("glFinish");
  glFinish();
  if (glGetError() != GL_NO_ERROR) return fail("the upload");
  glDeleteBuffers(2, buffers);
  step("done");
  free(data);
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display, context);
  eglTerminate(display);
  return 0;
}
