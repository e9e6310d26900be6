// bcrypt on the system's libcrypt (libxcrypt on Debian and most Linux distributions): no package
// to resolve and build for it. The library is opened at the first hash or check (dlopen), like
// libcurl, so that a run that never touches a password never loads it.
#include "CBcrypt.h"

#if defined(__linux__)

#include <crypt.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static struct {
    char *(*gensalt_rn)(const char *prefix, unsigned long count, const char *rbytes, int nrbytes,
                        char *output, int output_size);
    char *(*crypt_rn)(const char *phrase, const char *setting, void *data, int size);
} libcrypt;

static pthread_once_t loading = PTHREAD_ONCE_INIT;
static int loaded;

static void load(void) {
    void *library = dlopen("libcrypt.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen("libcrypt.so", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
    *(void **)&libcrypt.gensalt_rn = dlsym(library, "crypt_gensalt_rn");
    *(void **)&libcrypt.crypt_rn = dlsym(library, "crypt_rn");
    loaded = libcrypt.gensalt_rn != NULL && libcrypt.crypt_rn != NULL;
}

static int available(void) {
    pthread_once(&loading, load);
    return loaded;
}

int flows_bcrypt_hash(const char *password, unsigned cost, const unsigned char *salt,
                      char *hash, size_t hash_size) {
    if (!available()) return -1;
    char setting[CRYPT_GENSALT_OUTPUT_SIZE];
    if (libcrypt.gensalt_rn("$2b$", cost, (const char *)salt, 16, setting, sizeof setting) == NULL) {
        return -1;
    }
    struct crypt_data *data = calloc(1, sizeof *data);
    if (data == NULL) return -1;
    const char *result = libcrypt.crypt_rn(password, setting, data, sizeof *data);
    int status = -1;
    if (result != NULL && result[0] == '$' && strlen(result) < hash_size) {
        strcpy(hash, result);
        status = 0;
    }
    free(data);
    return status;
}

int flows_bcrypt_verify(const char *password, const char *hash) {
    if (strncmp(hash, "$2", 2) != 0 || !available()) return 0;
    struct crypt_data *data = calloc(1, sizeof *data);
    if (data == NULL) return 0;
    const char *result = libcrypt.crypt_rn(password, hash, data, sizeof *data);
    int matches = 0;
    size_t length = strlen(hash);
    if (result != NULL && result[0] == '$' && strlen(result) == length) {
        unsigned char difference = 0;
        for (size_t i = 0; i < length; i++) difference |= (unsigned char)(result[i] ^ hash[i]);
        matches = difference == 0;
    }
    free(data);
    return matches;
}

#else

// Elsewhere (macOS's libcrypt has no bcrypt) every hash is refused, and the service says so.
int flows_bcrypt_hash(const char *password, unsigned cost, const unsigned char *salt,
                      char *hash, size_t hash_size) {
    (void)password; (void)cost; (void)salt; (void)hash; (void)hash_size;
    return -1;
}

int flows_bcrypt_verify(const char *password, const char *hash) {
    (void)password; (void)hash;
    return 0;
}

#endif
