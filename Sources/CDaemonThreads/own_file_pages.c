#define _GNU_SOURCE
#include "orientd_threads.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

/// One mapping of /proc/self/smaps, as far as the release needs it.
struct mapping {
    uintptr_t start, end;
    char perms[8];
    char device[32];
    unsigned long long inode;
    long anonymous_kib;  // -1 until its "Anonymous:" line is read
};

static int read_header(const char *line, struct mapping *mapping)
{
    unsigned long long offset;
    mapping->anonymous_kib = -1;
    return sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %7s %llx %31s %llu", &mapping->start, &mapping->end,
                  mapping->perms, &offset, mapping->device, &mapping->inode) == 6;
}

/// Read-only, private, and no page of it copied on write: every resident page is the file's own,
/// so dropping it loses nothing (the next access reads it back from the page cache).
static int is_clean_copy_of(const struct mapping *mapping, const struct mapping *binary)
{
    return mapping->inode == binary->inode && strcmp(mapping->device, binary->device) == 0
        && mapping->perms[1] != 'w' && mapping->perms[3] == 'p' && mapping->anonymous_kib == 0;
}

static long release_if_clean(const struct mapping *mapping, const struct mapping *binary)
{
    if (!is_clean_copy_of(mapping, binary)) return 0;
    return madvise((void *)mapping->start, mapping->end - mapping->start, MADV_DONTNEED) == 0
        ? (long)(mapping->end - mapping->start) : 0;
}

long orientd_release_own_file_pages(void)
{
    uintptr_t self = (uintptr_t)&orientd_release_own_file_pages;
    FILE *smaps = fopen("/proc/self/smaps", "re");
    if (!smaps) return -1;
    char line[4096];
    struct mapping binary = { 0 }, current = { 0 };
    while (fgets(line, sizeof line, smaps)) {
        if (read_header(line, &current) && current.start <= self && self < current.end) { binary = current; break; }
    }
    if (binary.inode == 0) { fclose(smaps); return -1; }
    rewind(smaps);
    long released = 0;
    int have_current = 0;
    while (fgets(line, sizeof line, smaps)) {
        struct mapping next;
        if (read_header(line, &next)) {
            if (have_current) released += release_if_clean(&current, &binary);
            current = next;
            have_current = 1;
        } else if (have_current && strncmp(line, "Anonymous:", 10) == 0) {
            sscanf(line + 10, "%ld", &current.anonymous_kib);
        }
    }
    if (have_current) released += release_if_clean(&current, &binary);
    fclose(smaps);
    return released;
}
