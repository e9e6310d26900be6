// bcrypt on the system's libcrypt (libxcrypt on Debian and most Linux distributions), whose
// headers come with the C library's: no package to resolve and build for it.
#include "CBcrypt.h"

#if defined(__linux__)

#include <crypt.h>
#include <stdlib.h>
#include <string.h>

int flows_bcrypt_hash(const char *password, unsigned cost, const unsigned char *salt,
                      char *hash, size_t hash_size) {
    char setting[CRYPT_GENSALT_OUTPUT_SIZE];
    if (crypt_gensalt_rn("$2b$", cost, (const char *)salt, 16, setting, sizeof setting) == NULL) {
        return -1;
    }
    struct crypt_data *data = calloc(1, sizeof *data);
    if (data == NULL) return -1;
    const char *result = crypt_rn(password, setting, data, sizeof *data);
    int status = -1;
    if (result != NULL && result[0] == '$' && strlen(result) < hash_size) {
        strcpy(hash, result);
        status = 0;
    }
    free(data);
    return status;
}

int flows_bcrypt_verify(const char *password, const char *hash) {
    if (strncmp(hash, "$2", 2) != 0) return 0;
    struct crypt_data *data = calloc(1, sizeof *data);
    if (data == NULL) return 0;
    const char *result = crypt_rn(password, hash, data, sizeof *data);
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
