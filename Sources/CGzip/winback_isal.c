#include "winback_isal.h"

#if WINBACK_HAS_ISAL_HEADER
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static winback_isal_functions loaded;
static const winback_isal_functions *usable;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libisal.so.2", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) library = dlopen("libisal.so", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    loaded.inflate_init = (void (*)(struct inflate_state *))dlsym(library, "isal_inflate_init");
    loaded.inflate = (int (*)(struct inflate_state *))dlsym(library, "isal_inflate");
    loaded.deflate_init = (void (*)(struct isal_zstream *))dlsym(library, "isal_deflate_init");
    loaded.deflate = (int (*)(struct isal_zstream *))dlsym(library, "isal_deflate");
    if (loaded.inflate_init != NULL && loaded.inflate != NULL && loaded.deflate_init != NULL && loaded.deflate != NULL) {
        usable = &loaded;
    }
}

const winback_isal_functions *winback_isal_unless_refused(const char *variable) {
    const char *requested = getenv(variable);
    if (requested != NULL && strcmp(requested, "zlib") == 0) return NULL;
    pthread_once(&load_once, load);
    return usable;
}
#endif
