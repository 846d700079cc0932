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
    long resident_kib, anonymous_kib, swap_kib;  // -1 until their lines are read
};

static int read_header(const char *line, struct mapping *mapping)
{
    unsigned long long offset;
    mapping->resident_kib = mapping->anonymous_kib = mapping->swap_kib = -1;
    return sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %7s %llx %31s %llu", &mapping->start, &mapping->end,
                  mapping->perms, &offset, mapping->device, &mapping->inode) == 6;
}

static void read_field(const char *line, struct mapping *mapping)
{
    if (strncmp(line, "Rss:", 4) == 0) sscanf(line + 4, "%ld", &mapping->resident_kib);
    else if (strncmp(line, "Anonymous:", 10) == 0) sscanf(line + 10, "%ld", &mapping->anonymous_kib);
    else if (strncmp(line, "Swap:", 5) == 0) sscanf(line + 5, "%ld", &mapping->swap_kib);
}

/// Read-only, private, and no page of it copied on write, in memory or swapped out: every page is
/// the file's own, so dropping it loses nothing (the next access reads it back from the page cache).
static int is_clean_file_copy(const struct mapping *mapping)
{
    return mapping->inode != 0 && mapping->perms[1] != 'w' && mapping->perms[3] == 'p'
        && mapping->anonymous_kib == 0 && mapping->swap_kib == 0 && mapping->resident_kib > 0;
}

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

/// Pages the clean file mapping out: advice that never destroys data. Other threads run while
/// smaps is read, so the range may have been unmapped and something else mapped there since
/// (MADV_DONTNEED would then zero live memory); MADV_PAGEOUT reclaims whatever is there as the
/// kernel would under pressure (a file's pages are read back, an anonymous one swapped out or
/// kept), and skips pages other processes map too. Before Linux 5.4 it is refused: nothing happens.
static long release_if_clean(const struct mapping *mapping)
{
    if (!is_clean_file_copy(mapping)) return 0;
    return madvise((void *)mapping->start, mapping->end - mapping->start, MADV_PAGEOUT) == 0 ? mapping->resident_kib : 0;
}

long orientd_release_clean_file_pages(void)
{
    FILE *smaps = fopen("/proc/self/smaps", "re");
    if (!smaps) return -1;
    char line[4096];
    struct mapping current = { 0 };
    long released = 0;
    int have_current = 0;
    while (fgets(line, sizeof line, smaps)) {
        struct mapping next;
        if (read_header(line, &next)) {
            if (have_current) released += release_if_clean(&current);
            current = next;
            have_current = 1;
        } else if (have_current) {
            read_field(line, &current);
        }
    }
    if (have_current) released += release_if_clean(&current);
    fclose(smaps);
    return released;
}
