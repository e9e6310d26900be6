#ifndef FLOWS_CBCRYPT_H
#define FLOWS_CBCRYPT_H

#include <stddef.h>

/// The length of a bcrypt hash ("$2b$12$" + 22 characters of salt + 31 of checksum).
#define FLOWS_BCRYPT_HASH_LENGTH 60

/// Hashes `password` with bcrypt ($2b$) at `cost` (4 to 31), salted with the 16 bytes at `salt`,
/// into `hash` (at least FLOWS_BCRYPT_HASH_LENGTH + 1 bytes). Returns 0, or -1 when the
/// system's libcrypt refuses.
int flows_bcrypt_hash(const char *password, unsigned cost, const unsigned char *salt,
                      char *hash, size_t hash_size);

/// 1 when `password` hashes to `hash` under the salt and cost `hash` names, else 0 (also for a
/// hash that is not bcrypt's). The comparison takes the same time wherever the hashes differ.
int flows_bcrypt_verify(const char *password, const char *hash);

#endif
