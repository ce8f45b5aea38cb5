// The web build's copy of stb_image and stb_image_write (natively, Debian's libstb provides them).
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image.h>
#include <stb_image_write.h>
