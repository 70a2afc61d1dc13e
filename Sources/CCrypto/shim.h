#include <stddef.h>
#include <openssl/sha.h>

/// The SHA-256 digest of `length` bytes at `bytes` as 64 lowercase hexadecimal digits and a NUL,
/// written to `hex`. Schema checksums and token hashes both want the digest as text.
static inline void quire_sha256_hex(const void *bytes, size_t length, char hex[65]) {
    static const char digits[] = "0123456789abcdef";
    unsigned char digest[SHA256_DIGEST_LENGTH];
    SHA256((const unsigned char *)bytes, length, digest);
    for (int index = 0; index < SHA256_DIGEST_LENGTH; index++) {
        hex[2 * index] = digits[digest[index] >> 4];
        hex[2 * index + 1] = digits[digest[index] & 0x0f];
    }
    hex[64] = '\0';
}
